package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.FailureClass;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;

import java.time.Instant;
import java.util.UUID;

/**
 * The operation record: the store's current facts about one (run, node, logical attempt).
 *
 * @param traceparent the W3C trace context the dispatch carried, or null
 */
public record OperationRecord(
        String operationId,
        String runId,
        String nodeId,
        int logicalAttempt,
        OperationStatus status,
        int attempt,
        String tool,
        String toolSchemaVersion,
        String idempotencyKey,
        JsonNode payload,
        String approvalId,
        String traceId,
        String correlationId,
        String traceparent,
        String runtimeVersion,
        String leaseOwner,
        long fencingToken,
        Instant leaseExpiresAt,
        JsonNode result,
        SideEffectState sideEffect,
        FailureClass lastErrorClass,
        Instant nextEligibleAt,
        UUID redriveCommandId,
        Instant dispatchedAt,
        Instant createdAt,
        Instant updatedAt) {
}
