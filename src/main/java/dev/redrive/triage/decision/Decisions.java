package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
import dev.redrive.triage.decision.lookup.LookupAnswer;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionEngine;
import dev.redrive.worker.client.WorkerClient;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's decisions on dead-lettered operations. Each one is checked, then checked again inside the one
 * transaction that records it (with the operation and its entries locked, or the entry alone for a message
 * dead-lettered as itself), and lands in the audit log in that same
 * transaction. Of two operators deciding the same entry at once exactly one wins; the other is told who decided it and
 * when. A redrive's dispatch is published only after its transaction committed. One decision is a batch's chunk of
 * one item ({@link ChunkDecisions}): the same checks, statements and publishing.
 */
public final class Decisions {
    private final Database database;
    private final DecisionStore store;
    private final OperationDetailsLoader loader;
    private final ChunkDecisions single;
    private final ChunkDecisions chunks;
    private final DispatchPublisher publisher;
    private final RetryCancellation retries;
    private final Clock clock;

    /** Decisions whose redrives are published through the embedded worker client. */
    public Decisions(Database database, WorkerClient workerClient, Clock clock) {
        this(database, DispatchPublisher.of(() -> workerClient), clock);
    }

    public Decisions(Database database, DispatchPublisher publisher, Clock clock) {
        this.database = database;
        this.store = new DecisionStore(database);
        PreconditionEngine engine = new PreconditionEngine(database, clock);
        this.loader = new OperationDetailsLoader(database);
        this.single = new ChunkDecisions(database, store, engine, publisher, clock, true);
        this.chunks = new ChunkDecisions(database, store, engine, publisher, clock, false);
        this.publisher = publisher;
        this.retries = new RetryCancellation(database, store, clock);
        this.clock = clock;
    }

    /** Decides chunks of a batch: a target the store does not know is a blocked item, not a failure. */
    public ChunkDecisions chunks() {
        return chunks;
    }

    /** Where redrives' dispatches go: a durable batch publishes what its dead process left unpublished. */
    public DispatchPublisher publisher() {
        return publisher;
    }

    public Database database() {
        return database;
    }

    /** Every redrive precondition, without writing anything: a dry run. */
    public DecisionResult checkRedrive(DecisionTarget target) {
        return single.checkRedrive(List.of(target)).get(0);
    }

    /** Whether a resolve would be taken now, without writing anything. */
    public DecisionResult checkResolve(DecisionTarget named, JsonNode result) {
        return single.checkEntries(DecisionKind.RESOLVE, List.of(named), result).get(0);
    }

    /** Whether a discard would be taken now, without writing anything. */
    public DecisionResult checkDiscard(DecisionTarget target) {
        return single.checkEntries(DecisionKind.DISCARD, List.of(target), null).get(0);
    }

    /**
     * Issues a redrive command: re-checks every precondition inside the transaction that records the command, moves
     * the operation to PENDING at attempt + 1 and the entry to REDRIVEN, appends to the audit log; then publishes the
     * dispatch with the same operation id and idempotency key and the command id.
     */
    public DecisionResult redrive(DecisionTarget target, String operator, String reason) {
        requireWho(operator, reason);
        return single.redrive(List.of(target), operator, reason).get(0);
    }

    /**
     * Marks the operation succeeded with the reconciled result (the given one, else the latest APPLIED look-up's). A
     * DLQ entry without an operation is marked RESOLVED alone (nothing ran, so no result is needed; a given one is kept
     * in the audit log).
     */
    public DecisionResult resolve(DecisionTarget named, JsonNode result, String operator, String reason) {
        return decideOne(DecisionKind.RESOLVE, named, result, operator, reason);
    }

    /**
     * Gives the operation up: DISCARDED, never run again. A DLQ entry without an operation is discarded alone. An
     * operation waiting for its retry (no DLQ entry) has the retry cancelled, as resolve does with a result.
     */
    public DecisionResult discard(DecisionTarget named, String operator, String reason) {
        return decideOne(DecisionKind.DISCARD, named, null, operator, reason);
    }

    private DecisionResult decideOne(DecisionKind kind, DecisionTarget named, JsonNode result, String operator,
                                     String reason) {
        requireWho(operator, reason);
        boolean byOperation = named.operationId() != null && named.dlqEntryId() == null;
        if (byOperation && retries.waitsForRetry(named.operationId())) {
            Optional<DecisionResult> cancelled = retries.cancel(kind, named.operationId(), result, operator, reason);
            if (cancelled.isPresent()) {
                return cancelled.get();
            }
        }
        return single.decideEntries(kind, List.of(named), result, operator, reason).get(0);
    }

    /**
     * Records what is known about an operation's side effect (APPLIED / NOT_APPLIED with evidence, or UNKNOWN) and
     * settles the operation's side-effect state accordingly; UNKNOWN leaves it as it was.
     */
    public ReconciliationResult recordReconciliation(String operationId, ReconciliationOutcome outcome, String evidence,
                                                     JsonNode result, String operator) {
        return reconcile(operationId, outcome, ReconciliationSource.OPERATOR, evidence, result, operator);
    }

    /** Asks the tool's reconciliation about the operation's idempotency key and records its answer as evidence. */
    public ReconciliationResult reconcileWithTool(String operationId, SideEffectLookup lookup, String operator) {
        OperationRecord operation = loader.operation(operationId).orElseThrow(() -> loader.unknownOperation(operationId));
        LookupAnswer answer = lookup.lookUp(operation.tool(), operation.idempotencyKey());
        return reconcile(operationId, answer.outcome(), ReconciliationSource.TOOL, answer.evidence(), answer.result(), operator);
    }

    private ReconciliationResult reconcile(String operationId, ReconciliationOutcome outcome, ReconciliationSource source,
                                           String evidence, JsonNode result, String operator) {
        requireWho(operator, evidence);
        try {
            return recordReconciliation(operationId, outcome, source, evidence, result, operator);
        } catch (StoreException e) {
            if (!e.isRefused()) {
                throw e;
            }
            throw e.withMessage(DecisionAccess.whyRefused(database, e));
        }
    }

    private ReconciliationResult recordReconciliation(String operationId, ReconciliationOutcome outcome,
                                                      ReconciliationSource source, String evidence, JsonNode result,
                                                      String operator) {
        Instant at = clock.instant();
        return store.jdbc().inTransaction(() -> {
            store.lock(operationId);
            OperationRecord operation = loader.operation(operationId).orElseThrow(() -> loader.unknownOperation(operationId));
            SideEffectState settled = switch (outcome) {
                case APPLIED -> SideEffectState.APPLIED;
                case NOT_APPLIED -> SideEffectState.NOT_APPLIED;
                case UNKNOWN -> operation.sideEffect();
            };
            if (settled != operation.sideEffect() && operation.status() != OperationStatus.DEAD_LETTERED) {
                // Decided already (resolved, discarded, redriven) or not failed yet: either way not this operator's to
                // settle now, and op show says which.
                throw new DecisionRefusedException(DecisionOutcome.ALREADY_DECIDED, "operation " + operationId + " is "
                        + operation.status() + ", not DEAD_LETTERED: a reconciliation settles a dead-lettered "
                        + "operation's side effect only (op show " + operationId + " says what became of it)");
            }
            long id = store.insertReconciliation(operationId, outcome, source, evidence, result, operator, at);
            if (settled != operation.sideEffect()) {
                store.settleSideEffect(operationId, settled, at);
            }
            DlqEntryRecord entry = loader.entryOf(operationId).filter(DlqEntryRecord::isOpen).orElse(null);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("outcome", outcome.name());
            details.put("source", source.name());
            details.put("side_effect_before", operation.sideEffect().name());
            details.put("side_effect_after", settled.name());
            store.audit(at, operator, AuditAction.RECONCILE, operationId, entry == null ? null : entry.id(), null, evidence, details);
            return new ReconciliationResult(id, operationId, outcome, source, evidence, result, settled,
                    entry == null ? null : entry.version(), operator, at);
        });
    }

    private static void requireWho(String operator, String reason) {
        if (operator == null || operator.isBlank()) {
            throw new IllegalArgumentException("a decision needs the operator's name");
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a decision needs a reason");
        }
    }
}
