package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.UUID;

/** A redrive command with the precondition results it was issued against. */
public record RedriveCommandRecord(
        UUID commandId,
        String operationId,
        long dlqEntryId,
        String operator,
        String reason,
        Instant issuedAt,
        int fromAttempt,
        int toAttempt,
        String targetSchemaVersion,
        JsonNode preconditions,
        RedriveCommandStatus status,
        Instant executedAt,
        Instant completedAt) {
}
