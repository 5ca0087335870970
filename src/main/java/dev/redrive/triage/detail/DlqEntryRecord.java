package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;

import java.time.Instant;

/** A DLQ entry with all the evidence the worker kept when it dead-lettered the operation. */
public record DlqEntryRecord(
        long id,
        String dedupKey,
        String operationId,
        String runId,
        String nodeId,
        Integer logicalAttempt,
        Integer attempt,
        String tool,
        String toolSchemaVersion,
        String idempotencyKey,
        String approvalId,
        String traceId,
        String correlationId,
        String runtimeVersion,
        String stream,
        String entryId,
        Integer deliveryCount,
        String consumer,
        FailureClass errorClass,
        String errorCode,
        String errorMessage,
        String errorFingerprint,
        SideEffectState sideEffect,
        JsonNode attemptHistory,
        JsonNode rawMessage,
        JsonNode payload,
        Instant enteredAt,
        DecisionState decisionState,
        String decidedBy,
        Instant decidedAt,
        String decisionReason,
        int version) {

    public boolean isOpen() {
        return decisionState == DecisionState.OPEN;
    }
}
