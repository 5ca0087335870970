package dev.redrive.worker.tool;

import java.time.Instant;

/**
 * One call of a {@link Tool}: the operation's stable identity and idempotency key, which attempt this is, and the
 * payload (a JSON object as text).
 *
 * @param deadline when the worker's lease on the attempt ends (null when unknown): a call that reaches the remote
 *                 system later was sent by a worker that may have been paused past its lease while another took the
 *                 operation over, and should be refused without acting
 */
public record ToolCall(String operationId, String idempotencyKey, int attempt, String payload, String traceId,
                       String correlationId, Instant deadline) {

    /** A call without a deadline. */
    public ToolCall(String operationId, String idempotencyKey, int attempt, String payload, String traceId,
                    String correlationId) {
        this(operationId, idempotencyKey, attempt, payload, traceId, correlationId, null);
    }
}
