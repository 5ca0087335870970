package dev.redrive.store.operation;

import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationFinding;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * How one leased attempt ended, as it is committed: the operation's new status, its attempt row, the reconciliation
 * (if one was made) and, for a dead letter, the evidence the DLQ entry keeps beyond the operation row.
 *
 * @param outcome        SUCCEEDED, RETRY_SCHEDULED or DEAD_LETTERED
 * @param result         the tool's result (JSON) for SUCCEEDED, else null
 * @param error          why the attempt failed, null when it succeeded without trouble
 * @param nextEligibleAt when the retry is due, for RETRY_SCHEDULED
 * @param lastCall       what is known afterwards of the operation's latest tool call (see {@link LastCall})
 * @param deadLetter     the DLQ evidence, for DEAD_LETTERED
 * @param span           the attempt's exported span, or null when no tracer records it
 */
public record AttemptCommit(
        Lease lease,
        DeliveryInfo delivery,
        OperationStatus outcome,
        Instant finishedAt,
        String result,
        AttemptError error,
        Duration retryAfter,
        Instant nextEligibleAt,
        SideEffectState sideEffect,
        LastCall lastCall,
        ReconciliationFinding reconciliation,
        DeadLetterEvidence deadLetter,
        AttemptSpan span) {

    public AttemptCommit {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(sideEffect, "sideEffect");
        Objects.requireNonNull(lastCall, "lastCall");
        OperationStatus.RUNNING.checkTransition(outcome);
        if (outcome == OperationStatus.RETRY_SCHEDULED && (nextEligibleAt == null || error == null)) {
            throw new IllegalArgumentException("a scheduled retry needs its error and next_eligible_at");
        }
        if (outcome == OperationStatus.DEAD_LETTERED && (deadLetter == null || error == null)) {
            throw new IllegalArgumentException("a dead letter needs its error and evidence");
        }
    }

    /** An attempt whose span is not known (yet): the runner adds it with {@link #withSpan} when a tracer records one. */
    public AttemptCommit(Lease lease, DeliveryInfo delivery, OperationStatus outcome, Instant finishedAt, String result,
                         AttemptError error, Duration retryAfter, Instant nextEligibleAt, SideEffectState sideEffect,
                         LastCall lastCall, ReconciliationFinding reconciliation, DeadLetterEvidence deadLetter) {
        this(lease, delivery, outcome, finishedAt, result, error, retryAfter, nextEligibleAt, sideEffect, lastCall,
                reconciliation, deadLetter, null);
    }

    public AttemptCommit withSpan(AttemptSpan attemptSpan) {
        return new AttemptCommit(lease, delivery, outcome, finishedAt, result, error, retryAfter, nextEligibleAt,
                sideEffect, lastCall, reconciliation, deadLetter, attemptSpan);
    }

    /**
     * What a DLQ entry keeps that the operation row does not.
     *
     * @param rawMessage      the stream entry's fields as received
     * @param deliveryHistory JSON array of the deliveries that crashed the handler (may be {@code []})
     * @param fingerprint     the stable grouping hash of the error
     * @param runtimeVersion  the version of the worker that gave up
     */
    public record DeadLetterEvidence(Map<String, String> rawMessage, String deliveryHistory, String fingerprint,
                                     String runtimeVersion) {
    }
}
