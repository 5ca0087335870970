package dev.redrive.triage.detail;

import dev.redrive.model.RunStatus;

import java.time.Instant;

/** A run as the operation store knows it. */
public record RunRecord(String runId, RunStatus status, String statusReason, Instant createdAt, Instant updatedAt) {
}
