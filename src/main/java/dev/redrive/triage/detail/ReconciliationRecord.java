package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/** One recorded reconciliation of an operation's side effect. */
public record ReconciliationRecord(
        long id,
        ReconciliationOutcome outcome,
        ReconciliationSource source,
        String evidence,
        JsonNode result,
        String recordedBy,
        Instant recordedAt) {
}
