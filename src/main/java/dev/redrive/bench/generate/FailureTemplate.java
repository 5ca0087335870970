package dev.redrive.bench.generate;

import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.deadletter.ErrorFingerprint;

import java.util.List;

/**
 * One realistic way a tool fails. {@code {n}} in the message is replaced by a varying number, which the fingerprint
 * normalises away, so every entry made from one template lands in one group.
 *
 * @param attempts how many attempts the operation made before it was dead-lettered, 1 to {@link #MAX_ATTEMPTS}
 */
record FailureTemplate(String tool, FailureClass errorClass, String errorCode, String message,
                       SideEffectState sideEffect, int attempts) {
    /** The generator's SQL formats at most this many finished_at times into an attempt history. */
    static final int MAX_ATTEMPTS = 4;

    FailureTemplate {
        if (attempts < 1 || attempts > MAX_ATTEMPTS) {
            throw new IllegalArgumentException("a template makes 1 to " + MAX_ATTEMPTS + " attempts, got " + attempts);
        }
    }

    /** Most common first: the generator picks early templates more often, like a real incident. */
    static final List<FailureTemplate> CATALOGUE = List.of(
            new FailureTemplate("demo.charge", FailureClass.RATE_LIMITED, "429",
                    "rate limited by demo.charge: retry after {n} s, budget exhausted", SideEffectState.NONE, 4),
            new FailureTemplate("billing.invoice", FailureClass.DEPENDENCY_DOWN, "503",
                    "ledger service unavailable: connection refused after {n} ms", SideEffectState.NONE, 4),
            new FailureTemplate("demo.charge", FailureClass.UNKNOWN_SIDE_EFFECT, "timeout",
                    "read timed out after {n} ms waiting for demo.charge; the charge may have been applied",
                    SideEffectState.POSSIBLE, 2),
            new FailureTemplate("crm.sync", FailureClass.TRANSIENT, "502",
                    "bad gateway from crm upstream after {n} ms", SideEffectState.NONE, 3),
            new FailureTemplate("mail.send", FailureClass.RATE_LIMITED, "429",
                    "smtp relay throttled: more than {n} messages per minute", SideEffectState.NONE, 4),
            new FailureTemplate("demo.charge", FailureClass.INVALID_INPUT, "400",
                    "amount {n} exceeds the per-charge limit", SideEffectState.NONE, 1),
            new FailureTemplate("inventory.reserve", FailureClass.UNKNOWN_SIDE_EFFECT, "connection_reset",
                    "connection reset after sending reservation {n}", SideEffectState.POSSIBLE, 2),
            new FailureTemplate("crm.sync", FailureClass.PERMISSION, "401",
                    "oauth token expired for tenant {n}", SideEffectState.NONE, 1),
            new FailureTemplate("billing.invoice", FailureClass.TRANSIENT, "500",
                    "internal error while rendering invoice {n}", SideEffectState.NONE, 3),
            new FailureTemplate("inventory.reserve", FailureClass.DEPENDENCY_DOWN, "503",
                    "warehouse api down: circuit open for {n} s", SideEffectState.NONE, 4),
            new FailureTemplate("demo.charge", FailureClass.PERMISSION, "403",
                    "merchant account {n} is not allowed to charge this card", SideEffectState.NONE, 1),
            new FailureTemplate("mail.send", FailureClass.INVALID_INPUT, "422",
                    "recipient address rejected for customer {n}", SideEffectState.NONE, 1),
            new FailureTemplate("inventory.reserve", FailureClass.INVALID_INPUT, "400",
                    "sku {n} does not exist", SideEffectState.NONE, 1));

    /** The fingerprint the worker gives every failure made from this template. */
    String fingerprint() {
        return ErrorFingerprint.of(tool, errorClass, errorCode, message.replace("{n}", "1"));
    }
}
