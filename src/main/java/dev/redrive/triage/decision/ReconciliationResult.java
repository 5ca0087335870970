package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;

import java.time.Instant;

/**
 * A recorded reconciliation and where it leaves the operation.
 *
 * @param sideEffect   the operation's side-effect state afterwards
 * @param entryVersion the open entry's version afterwards (a decision taken next must be guarded by it), null when
 *                     the operation has no open entry
 */
public record ReconciliationResult(
        long reconciliationId,
        String operationId,
        ReconciliationOutcome outcome,
        ReconciliationSource source,
        String evidence,
        JsonNode result,
        SideEffectState sideEffect,
        Integer entryVersion,
        String recordedBy,
        Instant recordedAt) {
}
