package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.DecisionState;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.detail.ReconciliationRecord;
import dev.redrive.triage.detail.UnknownOperationException;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionEngine;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.worker.client.WorkerClient;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The operator's decisions on dead-lettered operations. Each one is checked, then checked again inside the one
 * transaction that records it (with the operation and its entries locked, or the entry alone for a message
 * dead-lettered as itself), and lands in the audit log in that same
 * transaction. Of two operators deciding the same entry at once exactly one wins; the other is told who decided it and
 * when. A redrive's dispatch is published only after its transaction committed.
 */
public final class Decisions {
    private final Database database;
    private final DecisionStore store;
    private final PreconditionEngine engine;
    private final OperationDetailsLoader loader;
    private final DispatchPublisher publisher;
    private final Clock clock;

    /** Decisions whose redrives are published through the embedded worker client. */
    public Decisions(Database database, WorkerClient workerClient, Clock clock) {
        this(database, (DispatchPublisher) workerClient::publish, clock);
    }

    public Decisions(Database database, DispatchPublisher publisher, Clock clock) {
        this.database = database;
        this.store = new DecisionStore(database);
        this.engine = new PreconditionEngine(database, clock);
        this.loader = new OperationDetailsLoader(database);
        this.publisher = publisher;
        this.clock = clock;
    }

    /** Every redrive precondition, without writing anything: a dry run. */
    public DecisionResult checkRedrive(DecisionTarget target) {
        PreconditionReport report = engine.check(target);
        if (!report.allPassed()) {
            return refused(DecisionKind.REDRIVE, report);
        }
        return new DecisionResult(DecisionKind.REDRIVE, DecisionOutcome.WOULD_PASS, report.operationId(), report.dlqEntryId(),
                "every precondition passes: a redrive would dispatch attempt " + (report.fromAttempt() + 1)
                        + " with schema version " + report.targetSchemaVersion(), report, null, null, null, null);
    }

    /** Whether a resolve would be taken now, without writing anything. */
    public DecisionResult checkResolve(DecisionTarget named, JsonNode result) {
        DecisionTarget target = engine.resolve(named);
        if (needsResult(target, result)) {
            return noResultToResolveWith(target);
        }
        return entryCheck(DecisionKind.RESOLVE, target);
    }

    /** Whether a discard would be taken now, without writing anything. */
    public DecisionResult checkDiscard(DecisionTarget target) {
        return entryCheck(DecisionKind.DISCARD, engine.resolve(target));
    }

    private DecisionResult entryCheck(DecisionKind kind, DecisionTarget target) {
        PreconditionReport report = engine.checkEntryOnly(target);
        if (!report.allPassed()) {
            return refused(kind, report);
        }
        return new DecisionResult(kind, DecisionOutcome.WOULD_PASS, report.operationId(), report.dlqEntryId(),
                "entry " + report.dlqEntryId() + " is open: it can be decided", report, null, null, null, null);
    }

    private DecisionResult noResultToResolveWith(DecisionTarget target) {
        PreconditionReport report = engine.checkEntryOnly(target);
        return new DecisionResult(DecisionKind.RESOLVE, DecisionOutcome.BLOCKED, report.operationId(), report.dlqEntryId(),
                "resolving needs the reconciled result: record an APPLIED reconciliation with its result, or give the result",
                report, null, null, null, null);
    }

    /**
     * Issues a redrive command: re-checks every precondition inside the transaction that records the command, moves
     * the operation to PENDING at attempt + 1 and the entry to REDRIVEN, appends to the audit log; then publishes the
     * dispatch with the same operation id and idempotency key and the command id.
     */
    public DecisionResult redrive(DecisionTarget target, String operator, String reason) {
        requireWho(operator, reason);
        DecisionResult checked = checkRedrive(target);
        if (checked.outcome() != DecisionOutcome.WOULD_PASS) {
            return checked;
        }
        Issued issued;
        try {
            issued = store.jdbc().inTransaction(() -> issue(target, operator, reason));
        } catch (DecisionRefusedException e) {
            return lostRace(DecisionKind.REDRIVE, target, checked.preconditions(), e);
        } catch (StoreException e) {
            return refusedByStore(DecisionKind.REDRIVE, checked.preconditions(), e);
        }
        if (issued.refusal() != null) {
            return issued.refusal();
        }
        return publish(issued, operator, reason);
    }

    /**
     * Marks the operation succeeded with the reconciled result (the given one, else the latest APPLIED look-up's). A
     * DLQ entry without an operation is marked RESOLVED alone (nothing ran, so no result is needed; a given one is kept
     * in the audit log).
     */
    public DecisionResult resolve(DecisionTarget named, JsonNode result, String operator, String reason) {
        requireWho(operator, reason);
        DecisionTarget target = engine.resolve(named);
        if (needsResult(target, result)) {
            return noResultToResolveWith(target);
        }
        JsonNode resolved = result != null ? result : appliedResult(target.operationId());
        return decideEntry(DecisionKind.RESOLVE, target, operator, reason,
                resolved == null ? Map.of() : Map.of("result", resolved),
                (operation, at) -> store.moveToSucceeded(operation, resolved, at));
    }

    /** Gives the operation up: DISCARDED, never run again. A DLQ entry without an operation is discarded alone. */
    public DecisionResult discard(DecisionTarget named, String operator, String reason) {
        requireWho(operator, reason);
        return decideEntry(DecisionKind.DISCARD, engine.resolve(named), operator, reason, Map.of(), store::moveToDiscarded);
    }

    /** An operation is resolved with its result; a DLQ entry without an operation has none to give. */
    private boolean needsResult(DecisionTarget target, JsonNode given) {
        return !target.entryOnly() && given == null && appliedResult(target.operationId()) == null;
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
        OperationRecord operation = loader.operation(operationId).orElseThrow(() -> new UnknownOperationException(operationId));
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
            throw e.withMessage(whyRefused(e));
        }
    }

    private ReconciliationResult recordReconciliation(String operationId, ReconciliationOutcome outcome,
                                                      ReconciliationSource source, String evidence, JsonNode result,
                                                      String operator) {
        Instant at = clock.instant();
        return store.jdbc().inTransaction(() -> {
            store.lock(operationId);
            OperationRecord operation = loader.operation(operationId).orElseThrow(() -> new UnknownOperationException(operationId));
            SideEffectState settled = switch (outcome) {
                case APPLIED -> SideEffectState.APPLIED;
                case NOT_APPLIED -> SideEffectState.NOT_APPLIED;
                case UNKNOWN -> operation.sideEffect();
            };
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

    private record Issued(DecisionResult refusal, OperationRecord operation, PreconditionReport report, UUID commandId,
                          Instant at) {
    }

    private Issued issue(DecisionTarget target, String operator, String reason) {
        store.lock(target.operationId());
        PreconditionReport report = engine.check(target);
        if (!report.allPassed()) {
            return new Issued(refused(DecisionKind.REDRIVE, report), null, report, null, null);
        }
        OperationRecord operation = loader.operation(target.operationId()).orElseThrow();
        UUID commandId = UUID.randomUUID();
        Instant at = clock.instant();
        long entryId = report.dlqEntryId();
        store.insertCommand(commandId, operation.operationId(), entryId, operator, reason, at, operation.attempt(),
                report.targetSchemaVersion(), report.results());
        store.moveToPending(operation.operationId(), operation.attempt(), commandId, report.targetSchemaVersion(), at);
        store.decideEntry(entryId, report.entryVersion(), DecisionState.REDRIVEN, operator, reason, at);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("from_attempt", operation.attempt());
        details.put("to_attempt", operation.attempt() + 1);
        details.put("target_schema_version", report.targetSchemaVersion());
        details.put("preconditions", report.results());
        store.audit(at, operator, AuditAction.REDRIVE, operation.operationId(), entryId, commandId, reason, details);
        return new Issued(null, operation, report, commandId, at);
    }

    private DecisionResult publish(Issued issued, String operator, String reason) {
        OperationRecord operation = issued.operation();
        int newAttempt = operation.attempt() + 1;
        DispatchEnvelope original = new DispatchEnvelope(OperationId.parse(operation.operationId()), operation.attempt(),
                operation.tool(), operation.toolSchemaVersion(), operation.idempotencyKey(),
                TriageJson.compact(operation.payload()), operation.traceId(), operation.correlationId(),
                operation.runtimeVersion(), operation.dispatchedAt(), null, operation.lastErrorClass(), null,
                operation.approvalId(), null);
        DispatchEnvelope redrive = original.redrive(newAttempt, issued.commandId().toString(),
                issued.report().targetSchemaVersion(), issued.at());
        Long entryId = issued.report().dlqEntryId();
        try {
            publisher.publish(redrive);
        } catch (RuntimeException e) {
            store.audit(clock.instant(), operator, AuditAction.REDRIVE_NOT_PUBLISHED, operation.operationId(), entryId,
                    issued.commandId(), reason, Map.of("error", Objects.toString(e.getMessage(), e.getClass().getName())));
            return new DecisionResult(DecisionKind.REDRIVE, DecisionOutcome.NOT_PUBLISHED, operation.operationId(), entryId,
                    "redrive command " + issued.commandId() + " is recorded but its dispatch was not published ("
                            + e.getMessage() + "); a running worker's sweep re-publishes the PENDING operation after its "
                            + "grace period", issued.report(), issued.commandId(), newAttempt, operator, issued.at());
        }
        return new DecisionResult(DecisionKind.REDRIVE, DecisionOutcome.DONE, operation.operationId(), entryId,
                "redrive command " + issued.commandId() + " issued: attempt " + newAttempt + " dispatched with schema version "
                        + issued.report().targetSchemaVersion(), issued.report(), issued.commandId(), newAttempt, operator,
                issued.at());
    }

    @FunctionalInterface
    private interface OperationChange {
        void apply(String operationId, Instant at);
    }

    private DecisionResult decideEntry(DecisionKind kind, DecisionTarget target, String operator, String reason,
                                       Map<String, Object> extraDetails, OperationChange change) {
        PreconditionReport checked = engine.checkEntryOnly(target);
        if (!checked.allPassed()) {
            return refused(kind, checked);
        }
        DecisionState decision = kind == DecisionKind.RESOLVE ? DecisionState.RESOLVED : DecisionState.DISCARDED;
        try {
            return store.jdbc().inTransaction(() -> {
                if (target.entryOnly()) {
                    store.lockEntry(target.dlqEntryId());
                } else {
                    store.lock(target.operationId());
                }
                PreconditionReport report = engine.checkEntryOnly(target);
                if (!report.allPassed()) {
                    return refused(kind, report);
                }
                Instant at = clock.instant();
                if (!target.entryOnly()) {
                    change.apply(target.operationId(), at);
                }
                store.decideEntry(report.dlqEntryId(), report.entryVersion(), decision, operator, reason, at);
                Map<String, Object> details = new LinkedHashMap<>(extraDetails);
                details.put("decision", decision.name());
                store.audit(at, operator, kind == DecisionKind.RESOLVE ? AuditAction.RESOLVE : AuditAction.DISCARD, target.operationId(), report.dlqEntryId(), null, reason, details);
                return new DecisionResult(kind, DecisionOutcome.DONE, target.operationId(), report.dlqEntryId(),
                        "entry " + report.dlqEntryId() + " " + decision.name().toLowerCase(Locale.ROOT) + " by " + operator,
                        report, null, null, operator, at);
            });
        } catch (DecisionRefusedException e) {
            return lostRace(kind, target, checked, e);
        } catch (StoreException e) {
            return refusedByStore(kind, checked, e);
        }
    }

    private JsonNode appliedResult(String operationId) {
        return loader.latestReconciliation(operationId)
                .filter(reconciliation -> reconciliation.outcome() == ReconciliationOutcome.APPLIED)
                .map(ReconciliationRecord::result)
                .orElse(null);
    }

    /** A decision the checks refused: ALREADY_DECIDED when another decision got there first, BLOCKED otherwise. */
    private static DecisionResult refused(DecisionKind kind, PreconditionReport report) {
        boolean decided = report.results().stream()
                .filter(result -> result.id() == PreconditionId.ENTRY_OPEN && !result.passed())
                .anyMatch(result -> result.facts().get("decision_state") != null
                        && !DecisionState.OPEN.name().equals(result.facts().get("decision_state")));
        String message = decided
                ? report.result(PreconditionId.ENTRY_OPEN).explanation()
                : "blocked: " + report.failed().stream().map(PreconditionResult::explanation).collect(Collectors.joining("; "));
        return new DecisionResult(kind, decided ? DecisionOutcome.ALREADY_DECIDED : DecisionOutcome.BLOCKED,
                report.operationId(), report.dlqEntryId(), message, report, null, null, null, null);
    }

    /** The guarded write found the row changed: tell who decided it, as the store now knows it. */
    private DecisionResult lostRace(DecisionKind kind, DecisionTarget target, PreconditionReport checked,
                                    DecisionRefusedException e) {
        String message = (checked.dlqEntryId() == null ? Optional.<DlqEntryRecord>empty() : loader.entry(checked.dlqEntryId()))
                .filter(entry -> !entry.isOpen())
                .map(PreconditionEngine::alreadyDecided)
                .orElse(e.getMessage());
        return new DecisionResult(kind, e.outcome(), target.operationId(), checked.dlqEntryId(), message, checked,
                null, null, null, null);
    }

    /** A role without the grants (or a guard in the database) refused the writes: say so, rethrow anything else. */
    private DecisionResult refusedByStore(DecisionKind kind, PreconditionReport checked, StoreException e) {
        if (!e.isRefused()) {
            throw e;
        }
        return new DecisionResult(kind, DecisionOutcome.REFUSED, checked.operationId(), checked.dlqEntryId(),
                "refused by the database: " + whyRefused(e), checked, null, null, null, null);
    }

    /** The refusal in the operator's terms: which role, whether it is a viewer, what it lacks; then the database's line. */
    private String whyRefused(StoreException e) {
        String said = e.getMessage() == null ? "permission denied" : e.getMessage().lines().findFirst().orElse("");
        DecisionAccess access = DecisionAccess.of(database);
        return access.canDecide() ? said : access.readOnlyReason() + ": " + said;
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
