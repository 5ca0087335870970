package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.deadletter.DeadLetterStore;

import java.time.Instant;

/**
 * A DLQ entry with all the evidence the worker kept when it dead-lettered the operation.
 *
 * @param supersededBy the correction that replaced the entry's operation, when the decision is SUPERSEDED
 * @param evidencePurgedAt when retention purged the entry's evidence (raw message, payload, attempt history, then
 *                     null or empty); null while it is kept
 */
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
        int version,
        String supersededBy,
        Instant evidencePurgedAt) {

    public boolean evidencePurged() {
        return evidencePurgedAt != null;
    }

    /** What the CLI, the console and reports show where the evidence was. */
    public String purgedNote() {
        return "purged by retention at " + evidencePurgedAt + ": this entry's raw message, payload and attempt history "
                + "are no longer kept (its identity, error, decision and audit trail are; the operation's own record "
                + "is never purged)";
    }

    public boolean isOpen() {
        return decisionState == DecisionState.OPEN;
    }

    /**
     * Whether the worker entered this for its operation's dead-lettered attempt. A message it could not take as a
     * dispatch (malformed, or reusing an operation id with other parameters) is dead-lettered as itself: it has no
     * operation of its own even when its raw fields name one, and deciding it must leave that operation alone. The
     * dedup key tells the two apart, since it is what the worker derives from the operation and attempt it entered.
     */
    public boolean ofOperation() {
        return operationId != null && attempt != null
                && DeadLetterStore.operationDedupKey(operationId, attempt).equals(dedupKey);
    }
}
