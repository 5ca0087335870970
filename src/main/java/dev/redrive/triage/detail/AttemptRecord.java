package dev.redrive.triage.detail;

import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;

import java.time.Instant;
import java.util.UUID;

/**
 * One execution try of an operation.
 *
 * @param outcome SUCCEEDED, RETRY_SCHEDULED or DEAD_LETTERED
 * @param traceId the trace of the attempt's OpenTelemetry span, null when no tracer recorded it
 * @param spanId  the attempt's span ({@code redrive.attempt}) in that trace, null likewise
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
        SideEffectState sideEffect,
        String traceId,
        String spanId) {

    public boolean succeeded() {
        return "SUCCEEDED".equals(outcome);
    }

    /** A tracer recorded this attempt's span: {@link #traceId} and {@link #spanId} name it. */
    public boolean hasSpan() {
        return spanId != null;
    }

    /** The same attempt with another error text (a masked one). */
    public AttemptRecord withErrorMessage(String message) {
        return new AttemptRecord(id, attempt, deliveryId, deliveryCount, consumer, fencingToken, redriveCommandId,
                startedAt, finishedAt, outcome, errorClass, errorCode, message, retryAfterMs, nextEligibleAt, sideEffect,
                traceId, spanId);
    }
}
