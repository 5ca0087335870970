package dev.redrive.demo.tools;

import java.time.Instant;

/** One charge call as received: the headers that matter and the raw body. */
record ChargeRequest(String idempotencyKey, String operationId, Integer attempt, String body, Instant receivedAt) {
}
