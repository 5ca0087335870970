package dev.redrive.triage.detail;

import com.fasterxml.jackson.databind.JsonNode;

import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
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
