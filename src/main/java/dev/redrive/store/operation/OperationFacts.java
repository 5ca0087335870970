package dev.redrive.store.operation;

import dev.redrive.model.FailureClass;
import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;

import java.time.Instant;
import java.util.UUID;

/**
 * What PostgreSQL knows about one operation when a dispatch for it arrives: the facts a worker checks before it
 * makes a side effect. {@code commandStatus} and {@code commandToAttempt} describe the redrive command named by
 * {@code redriveCommandId}, {@code lastDeliveryId} the stream entry of the newest attempt row,
 * {@code processingDeliveries} how many deliveries have claimed the operation since it last settled, {@code traceparent}
 * the W3C trace context its first dispatch carried (null without one), {@code lastCall} what is known of its latest
 * tool call.
 */
public record OperationFacts(
        String operationId,
        String runId,
        RunStatus runStatus,
        OperationStatus status,
        int attempt,
        String tool,
        String toolSchemaVersion,
        String idempotencyKey,
        String payload,
        String approvalId,
        String traceId,
        String correlationId,
        String runtimeVersion,
        String leaseOwner,
        String leaseDeliveryId,
        long fencingToken,
        Instant leaseExpiresAt,
        String result,
        SideEffectState sideEffect,
        FailureClass lastErrorClass,
        Instant nextEligibleAt,
        UUID redriveCommandId,
        String commandStatus,
        Integer commandToAttempt,
        String lastDeliveryId,
        Instant updatedAt,
        int processingDeliveries,
        String traceparent,
        LastCall lastCall) {

    /** Another worker (or another delivery in this one) holds a lease that has not expired yet. */
    public boolean leaseIsLive(Instant now) {
        return status == OperationStatus.RUNNING && leaseExpiresAt != null && leaseExpiresAt.isAfter(now);
    }
}
