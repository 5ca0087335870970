package dev.redrive.worker.tool;

/**
 * One call of a {@link Tool}: the operation's stable identity and idempotency key, which attempt this is, and the
 * payload (a JSON object as text).
 */
public record ToolCall(String operationId, String idempotencyKey, int attempt, String payload, String traceId,
                       String correlationId) {
}
