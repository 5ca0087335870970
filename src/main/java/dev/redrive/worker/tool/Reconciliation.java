package dev.redrive.worker.tool;

import java.util.Objects;

/**
 * What a tool's look-up by idempotency key found out about an earlier call.
 *
 * @param result   the stored result of the applied effect (JSON), only for {@link Outcome#APPLIED}
 * @param evidence what the look-up saw, kept in the {@code reconciliations} table
 */
public record Reconciliation(Outcome outcome, String result, String evidence) {

    /** Whether the effect happened. */
    public enum Outcome { APPLIED, NOT_APPLIED, UNKNOWN }

    public Reconciliation {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(evidence, "evidence");
        if (outcome == Outcome.APPLIED && result == null) {
            throw new IllegalArgumentException("an applied effect needs its result");
        }
    }

    public static Reconciliation applied(String result, String evidence) {
        return new Reconciliation(Outcome.APPLIED, result, evidence);
    }

    public static Reconciliation notApplied(String evidence) {
        return new Reconciliation(Outcome.NOT_APPLIED, null, evidence);
    }

    public static Reconciliation unknown(String evidence) {
        return new Reconciliation(Outcome.UNKNOWN, null, evidence);
    }
}
