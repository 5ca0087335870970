package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.UUID;

/** One line of the append-only audit log: who did what, when and why. */
public record AuditEntry(
        long id,
        Instant at,
        String actor,
        String action,
        String operationId,
        Long dlqEntryId,
        UUID commandId,
        String reason,
        JsonNode details) {
}
