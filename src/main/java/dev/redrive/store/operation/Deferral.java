package dev.redrive.store.operation;

import dev.redrive.model.FailureClass;

import java.time.Instant;

/** An operation put off without spending an attempt (its tool is rate limited or down). */
public record Deferral(String operationId, int attempt, Instant until, FailureClass because) {
}
