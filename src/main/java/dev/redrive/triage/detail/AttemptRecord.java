package dev.redrive.triage.detail;

import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;

import java.time.Instant;
import java.util.UUID;

/**
 * One execution try of an operation.
 *
 * @param outcome SUCCEEDED, RETRY_SCHEDULED or DEAD_LETTERED
 */
public record AttemptRecord(
        long id,
        int attempt,
        String deliveryId,
        Integer deliveryCount,
        String consumer,
        Long fencingToken,
        UUID redriveCommandId,
        Instant startedAt,
        Instant finishedAt,
        String outcome,
        FailureClass errorClass,
        String errorCode,
        String errorMessage,
        Long retryAfterMs,
        Instant nextEligibleAt,
        SideEffectState sideEffect) {

    public boolean succeeded() {
        return "SUCCEEDED".equals(outcome);
    }
}
