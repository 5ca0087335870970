package dev.redrive.demo.tools;

import java.time.Instant;

/** One call of a tool as received: the headers that matter and the raw body. */
record ToolCall(String idempotencyKey, String operationId, Integer attempt, String body, Instant receivedAt) {
}
