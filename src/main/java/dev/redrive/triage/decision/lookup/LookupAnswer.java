package dev.redrive.triage.decision.lookup;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.store.reconciliation.ReconciliationOutcome;

/**
 * What a tool's reconciliation look-up answered.
 *
 * @param result   the stored result of the applied effect, when the tool returned one
 * @param evidence what was asked and what came back, kept as the reconciliation's evidence
 */
public record LookupAnswer(ReconciliationOutcome outcome, JsonNode result, String evidence) {
}
