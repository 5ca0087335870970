package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.json.TriageJson;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Discard or resolve of an operation that waits for its retry (RETRY_SCHEDULED): it has no DLQ entry to decide, so the
 * decision cancels the retry instead. The operation is locked, found still waiting at the attempt read, moved and
 * audited in one transaction; the worker then acks the retry's dispatch without running it (the operation is
 * DISCARDED or SUCCEEDED). A retry that started meanwhile (RUNNING) is left alone and the operator told so.
 */
final class RetryCancellation {
    private final Database database;
    private final DecisionStore store;
    private final OperationDetailsLoader loader;
    private final Clock clock;

    RetryCancellation(Database database, DecisionStore store, Clock clock) {
        this.database = database;
        this.store = store;
        this.loader = new OperationDetailsLoader(database);
        this.clock = clock;
    }

    /** Whether the operation waits for a retry now, read without a lock: whether {@link #cancel} applies. */
    boolean waitsForRetry(String operationId) {
        return loader.operation(operationId).map(op -> op.status() == OperationStatus.RETRY_SCHEDULED).orElse(false);
    }

    /**
     * Cancels the retry as {@code kind} (DISCARD, or RESOLVE with {@code given} or the latest APPLIED reconciliation's
     * result). Empty when the operation no longer waits for a retry once locked (it was dead-lettered meanwhile, say):
     * the caller decides it as any other.
     */
    Optional<DecisionResult> cancel(DecisionKind kind, String operationId, JsonNode given, String operator,
                                    String reason) {
        try {
            return store.jdbc().inTransaction(() -> cancelLocked(kind, operationId, given, operator, reason));
        } catch (DecisionRefusedException e) {
            return Optional.of(result(kind, e.outcome(), operationId, e.getMessage(), null, null));
        } catch (StoreException e) {
            if (!e.isRefused()) {
                throw e;
            }
            return Optional.of(result(kind, DecisionOutcome.REFUSED, operationId, "refused by the database: "
                    + DecisionAccess.whyRefused(database, e), null, null));
        }
    }

    private Optional<DecisionResult> cancelLocked(DecisionKind kind, String operationId, JsonNode given,
                                                  String operator, String reason) {
        store.lock(operationId);
        OperationRecord operation = loader.operation(operationId).orElse(null);
        if (operation == null || operation.status() != OperationStatus.RETRY_SCHEDULED) {
            return Optional.empty();
        }
        JsonNode resolved = given != null ? given : ChunkDecisions.appliedResult(loader.latestReconciliations(List.of(operationId))
                .get(operationId));
        if (kind == DecisionKind.RESOLVE && resolved == null) {
            return Optional.of(result(kind, DecisionOutcome.BLOCKED, operationId, "resolving needs the result: the "
                    + "operation waits for its retry and has no APPLIED reconciliation; give the result (CLI: --result JSON; "
                    + "console: the Result field)", null, null));
        }
        OperationStatus to = kind == DecisionKind.RESOLVE ? OperationStatus.SUCCEEDED : OperationStatus.DISCARDED;
        Instant at = clock.instant();
        store.cancelRetry(operationId, operation.attempt(), to,
                kind == DecisionKind.RESOLVE ? TriageJson.compact(resolved) : null, at);
        Map<String, Object> details = new LinkedHashMap<>();
        if (kind == DecisionKind.RESOLVE) {
            details.put("result", resolved);
        }
        details.put("decision", to.name());
        details.put("cancelled_retry", cancelled(operation));
        store.audit(at, operator, kind == DecisionKind.RESOLVE ? AuditAction.RESOLVE : AuditAction.DISCARD, operationId,
                null, null, reason, details);
        return Optional.of(result(kind, DecisionOutcome.DONE, operationId, "retry of attempt " + operation.attempt()
                + " (due " + operation.nextEligibleAt() + ") cancelled: operation " + to + " by " + operator
                + "; it never runs again", operator, at));
    }

    /** What the audit line keeps of the retry that will not run. */
    private static Map<String, Object> cancelled(OperationRecord operation) {
        Map<String, Object> retry = new LinkedHashMap<>();
        retry.put("attempt", operation.attempt());
        retry.put("next_eligible_at", String.valueOf(operation.nextEligibleAt()));
        retry.put("last_error_class", operation.lastErrorClass() == null ? null : operation.lastErrorClass().name());
        return retry;
    }

    private static DecisionResult result(DecisionKind kind, DecisionOutcome outcome, String operationId, String message,
                                         String operator, Instant at) {
        return new DecisionResult(kind, outcome, operationId, null, message, null, null, null, operator, at);
    }
}
