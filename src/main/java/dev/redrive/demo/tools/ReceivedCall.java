package dev.redrive.demo.tools;

import java.time.Instant;

/**
 * One call of a demo tool as its HTTP server received it: the headers that matter and the raw body (the worker's side
 * of a call is {@code worker.tool.ToolCall}).
 */
record ReceivedCall(String idempotencyKey, String operationId, Integer attempt, String body, Instant receivedAt,
                    Instant deadline) {
}
