package dev.redrive.envelope;

import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;

import java.time.Instant;

/**
 * One dispatch of the v1 wire contract: what a runtime asks a worker to execute. Retries and redrives keep the
 * operation id and idempotency key and carry a higher {@code attempt}.
 *
 * @param traceparent the W3C trace context of the caller's span (see {@link Traceparent}), or null
 */
public record DispatchEnvelope(
        OperationId operationId,
        int attempt,
        String tool,
        String toolSchemaVersion,
        String idempotencyKey,
        String payload,
        String traceId,
        String correlationId,
        String runtimeVersion,
        Instant dispatchedAt,
        Instant nextEligibleAt,
        FailureClass lastErrorClass,
        String redriveCommandId,
        String approvalId,
        String traceparent) {

    public static final String WIRE_VERSION = "1";

    public String runId() {
        return operationId.runId();
    }

    public String nodeId() {
        return operationId.nodeId();
    }

    public int logicalAttempt() {
        return operationId.logicalAttempt();
    }

    /** This dispatch continuing the trace of {@code traceparent} (a valid W3C traceparent, or null for none). */
    public DispatchEnvelope withTraceparent(String traceparent) {
        return new DispatchEnvelope(operationId, attempt, tool, toolSchemaVersion, idempotencyKey, payload, traceId,
                correlationId, runtimeVersion, dispatchedAt, nextEligibleAt, lastErrorClass, redriveCommandId,
                approvalId, traceparent);
    }

    /** The same dispatch, due at {@code when}: handed on to the workers of its tool through the retry set. */
    public DispatchEnvelope dueAt(Instant when) {
        return new DispatchEnvelope(operationId, attempt, tool, toolSchemaVersion, idempotencyKey, payload, traceId,
                correlationId, runtimeVersion, dispatchedAt, when, lastErrorClass, redriveCommandId, approvalId,
                traceparent);
    }

    /** The same operation, one attempt later, due at {@code when} because of {@code why}. */
    public DispatchEnvelope retry(Instant when, FailureClass why, Instant now) {
        return new DispatchEnvelope(operationId, attempt + 1, tool, toolSchemaVersion, idempotencyKey, payload, traceId,
                correlationId, runtimeVersion, now, when, why, null, approvalId, traceparent);
    }

    /** The same operation at {@code newAttempt}, authorised by a redrive command. */
    public DispatchEnvelope redrive(int newAttempt, String commandId, String schemaVersion, Instant now) {
        return new DispatchEnvelope(operationId, newAttempt, tool, schemaVersion, idempotencyKey, payload, traceId,
                correlationId, runtimeVersion, now, null, lastErrorClass, commandId, approvalId, traceparent);
    }
}
