package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.UUID;

/**
 * A redrive command with the precondition results it was issued against.
 *
 * @param operatorTraceparent the W3C trace context of the operator's console or CLI when it issued the command (with
 *                            an OpenTelemetry SDK installed there), else null
 */
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
        Instant completedAt,
        String operatorTraceparent) {
}
