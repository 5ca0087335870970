package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.DecisionState;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.deadletter.EntryDecisionStore.EntryVersion;
import dev.redrive.store.operation.OperationDecisionStore.RedriveMove;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.detail.ReconciliationRecord;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionEngine;
import dev.redrive.triage.precondition.PreconditionEngine.Checked;
import dev.redrive.triage.precondition.PreconditionEngine.Checks;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Decides a chunk of items in one transaction: the operations and entries of the whole chunk are locked (in the order
 * of the store's LOCK ORDER), every precondition of every item is checked against the facts read after the locks, and
 * the commands, operation moves, entry decisions and audit lines of the items that pass are written with one
 * multi-row statement each; a redrive chunk's dispatches are then published in one round trip. An item that fails a
 * check is left as it is and says why; it never holds back the others. A single decision is a chunk of one.
 */
public final class ChunkDecisions {
    private final Database database;
    private final DecisionStore store;
    private final PreconditionEngine engine;
    private final DispatchPublisher publisher;
    private final Clock clock;
    private final boolean throwUnknown;

    /**
     * @param throwUnknown a target the store does not know is thrown ({@code UnknownOperationException}, ...) rather
     *                     than reported as a blocked item: one decision fails on it, a batch goes on
     */
    ChunkDecisions(Database database, DecisionStore store, PreconditionEngine engine, DispatchPublisher publisher,
                   Clock clock, boolean throwUnknown) {
        this.database = database;
        this.store = store;
        this.engine = engine;
        this.publisher = publisher;
        this.clock = clock;
        this.throwUnknown = throwUnknown;
    }

    // Dry runs ------------------------------------------------------------------------------------------------------

    public List<DecisionResult> checkRedrive(List<DecisionTarget> targets) {
        return engine.checkAll(targets, Checks.REDRIVE).stream().map(checked -> {
            if (checked.unknown() != null) {
                return unknown(DecisionKind.REDRIVE, checked);
            }
            PreconditionReport report = checked.report();
            if (!report.allPassed()) {
                return refused(DecisionKind.REDRIVE, report);
            }
            return new DecisionResult(DecisionKind.REDRIVE, DecisionOutcome.WOULD_PASS, report.operationId(),
                    report.dlqEntryId(), "every precondition passes: a redrive would dispatch attempt "
                    + (report.fromAttempt() + 1) + " with schema version " + report.targetSchemaVersion(), report,
                    null, null, null, null);
        }).toList();
    }

    /** Whether resolve ({@code kind} RESOLVE, with {@code result} or each one's APPLIED result) or discard would be taken. */
    public List<DecisionResult> checkEntries(DecisionKind kind, List<DecisionTarget> targets, JsonNode result) {
        return engine.checkAll(targets, Checks.ENTRY_ONLY).stream().map(checked -> {
            DecisionResult refusal = entryRefusal(kind, checked, result);
            if (refusal != null) {
                return refusal;
            }
            PreconditionReport report = checked.report();
            return new DecisionResult(kind, DecisionOutcome.WOULD_PASS, report.operationId(), report.dlqEntryId(),
                    "entry " + report.dlqEntryId() + " is open: it can be decided", report, null, null, null, null);
        }).toList();
    }

    // Redrive -------------------------------------------------------------------------------------------------------

    /** What the redrive transaction issued, item by item: a result for the items it did not issue, else the redrive. */
    private record Issued(DecisionResult[] results, List<Redrive> redrives, Instant at) {
    }

    private record Redrive(int index, Checked checked, UUID commandId) {
    }

    List<DecisionResult> redrive(List<DecisionTarget> targets, String operator, String reason) {
        return redrive(targets, operator, reason, ChunkCommit.NONE, WriteTurn.first());
    }

    /**
     * Redrives a chunk, running {@code commit} last inside each transaction that records its decisions, writing in
     * {@code turn}; the turn is passed on once the chunk's transactions have ended, before its dispatches are published.
     */
    public List<DecisionResult> redrive(List<DecisionTarget> targets, String operator, String reason,
                                        ChunkCommit commit, WriteTurn turn) {
        Issued issued;
        try {
            issued = store.jdbc().inTransaction(() -> issue(targets, operator, reason, commit, turn));
        } catch (WriteTurn.WaitedTooLong e) {
            // Rolled back, so the chunk before has this chunk's locks to take if it waits for one: go again after it.
            turn.awaitWithoutLocks();
            return redrive(targets, operator, reason, commit, turn);
        } catch (DecisionRefusedException e) {
            return passingOn(turn, () -> lostRace(DecisionKind.REDRIVE, targets, null, e,
                    chunk -> redrive(chunk, operator, reason, commit, turn.within())));
        } catch (StoreException e) {
            return passingOn(turn, () -> refusedByStore(DecisionKind.REDRIVE, targets, null, e));
        }
        turn.pass();
        return publish(issued, operator, reason);
    }

    private Issued issue(List<DecisionTarget> targets, String operator, String reason, ChunkCommit commit,
                         WriteTurn turn) {
        lock(targets);
        List<Checked> checks = engine.checkAll(targets, Checks.REDRIVE);
        DecisionResult[] results = new DecisionResult[targets.size()];
        List<Redrive> redrives = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (int i = 0; i < checks.size(); i++) {
            Checked checked = checks.get(i);
            if (checked.unknown() != null) {
                results[i] = unknown(DecisionKind.REDRIVE, checked);
            } else if (!checked.report().allPassed()) {
                results[i] = refused(DecisionKind.REDRIVE, checked.report());
            } else if (!taken.add(checked.report().operationId())) {
                results[i] = listedTwice(DecisionKind.REDRIVE, checked.report());
            } else {
                redrives.add(new Redrive(i, checked, UUID.randomUUID()));
            }
        }
        Instant at = clock.instant();
        List<RedriveMove> commands = new ArrayList<>(redrives.size());
        List<EntryVersion> entries = new ArrayList<>(redrives.size());
        List<AuditLine> audit = new ArrayList<>(redrives.size());
        for (Redrive redrive : redrives) {
            PreconditionReport report = redrive.checked().report();
            OperationRecord operation = redrive.checked().operation();
            // Written once: the command keeps the text, and the audit line embeds the same text as it is.
            String preconditions = TriageJson.compact(report.results());
            commands.add(new RedriveMove(redrive.commandId(), operation.operationId(), report.dlqEntryId(),
                    operation.attempt(), report.targetSchemaVersion(), preconditions));
            entries.add(new EntryVersion(report.dlqEntryId(), report.entryVersion()));
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("from_attempt", operation.attempt());
            details.put("to_attempt", operation.attempt() + 1);
            details.put("target_schema_version", report.targetSchemaVersion());
            details.put("preconditions", new RawValue(preconditions));
            audit.add(new AuditLine(at, operator, AuditAction.REDRIVE, new AuditSubject(operation.operationId(),
                    report.dlqEntryId(), redrive.commandId()), reason, details));
        }
        store.insertCommands(commands, operator, reason, at);
        if (!commands.isEmpty()) {
            store.moveToPending(commands, at);
        }
        store.auditAll(audit);
        // The rows above are this chunk's own; deciding the entries locks the summary rows chunks share.
        turn.await();
        decide(entries, DecisionState.REDRIVEN, operator, reason, at);
        List<BatchItem> items = new ArrayList<>(targets.size());
        Map<Integer, Redrive> issuedAt = redrives.stream().collect(Collectors.toMap(Redrive::index, redrive -> redrive));
        for (int i = 0; i < targets.size(); i++) {
            Redrive redrive = issuedAt.get(i);
            items.add(redrive == null ? BatchItem.of(results[i]) : new BatchItem(redrive.checked().operation().operationId(),
                    redrive.checked().report().dlqEntryId(), DecisionOutcome.DONE, redrive.commandId(), List.of(),
                    "redrive command " + redrive.commandId() + " issued: attempt "
                            + (redrive.checked().operation().attempt() + 1)));
        }
        commit.committing(targets, items, redrives.stream().map(Redrive::commandId).toList());
        return new Issued(results, redrives, at);
    }

    /**
     * Publishes the committed redrives' dispatches in one round trip. When that fails the redrives stay recorded, each
     * is NOT_PUBLISHED with an audit line, and a running worker's sweep publishes the PENDING operations.
     */
    private List<DecisionResult> publish(Issued issued, String operator, String reason) {
        DecisionResult[] results = issued.results();
        List<DispatchEnvelope> dispatches = issued.redrives().stream()
                .map(redrive -> dispatch(redrive, issued.at())).toList();
        RuntimeException failure = null;
        try {
            publisher.publishAll(dispatches);
        } catch (RuntimeException e) {
            failure = e;
        }
        if (failure != null) {
            String error = Objects.toString(failure.getMessage(), failure.getClass().getName());
            Instant failedAt = clock.instant();
            store.auditAll(issued.redrives().stream()
                    .map(redrive -> new AuditLine(failedAt, operator, AuditAction.REDRIVE_NOT_PUBLISHED,
                            new AuditSubject(redrive.checked().operation().operationId(),
                                    redrive.checked().report().dlqEntryId(), redrive.commandId()), reason,
                            Map.of("error", error)))
                    .toList());
        }
        for (Redrive redrive : issued.redrives()) {
            PreconditionReport report = redrive.checked().report();
            int newAttempt = report.fromAttempt() + 1;
            results[redrive.index()] = failure == null
                    ? new DecisionResult(DecisionKind.REDRIVE, DecisionOutcome.DONE, report.operationId(),
                    report.dlqEntryId(), "redrive command " + redrive.commandId() + " issued: attempt " + newAttempt
                    + " dispatched with schema version " + report.targetSchemaVersion(), report, redrive.commandId(),
                    newAttempt, operator, issued.at())
                    : new DecisionResult(DecisionKind.REDRIVE, DecisionOutcome.NOT_PUBLISHED, report.operationId(),
                    report.dlqEntryId(), "redrive command " + redrive.commandId() + " is recorded but its dispatch "
                    + "was not published (" + failure.getMessage() + "); a running worker's sweep re-publishes the "
                    + "PENDING operation after its grace period", report, redrive.commandId(), newAttempt, operator,
                    issued.at());
        }
        return Arrays.asList(results);
    }

    /** The redrive's dispatch: the operation's identity and payload at attempt + 1, with the command id. */
    private static DispatchEnvelope dispatch(Redrive redrive, Instant at) {
        OperationRecord operation = redrive.checked().operation();
        DispatchEnvelope original = new DispatchEnvelope(OperationId.parse(operation.operationId()), operation.attempt(),
                operation.tool(), operation.toolSchemaVersion(), operation.idempotencyKey(),
                TriageJson.compact(operation.payload()), operation.traceId(), operation.correlationId(),
                operation.runtimeVersion(), operation.dispatchedAt(), null, operation.lastErrorClass(), null,
                operation.approvalId(), null);
        return original.redrive(operation.attempt() + 1, redrive.commandId().toString(),
                redrive.checked().report().targetSchemaVersion(), at);
    }

    // Resolve and discard -------------------------------------------------------------------------------------------

    /**
     * Resolves (with {@code result}, or each operation's APPLIED reconciliation's result) or discards a chunk. An entry
     * without an operation is decided alone; an operation's entry is decided with its operation.
     */
    List<DecisionResult> decideEntries(DecisionKind kind, List<DecisionTarget> targets, JsonNode result,
                                       String operator, String reason) {
        return decideEntries(kind, targets, result, operator, reason, ChunkCommit.NONE, WriteTurn.first());
    }

    /**
     * Resolves or discards a chunk, running {@code commit} last inside each transaction that records its decisions,
     * writing in {@code turn}, which is passed on once the chunk's transactions have ended.
     */
    public List<DecisionResult> decideEntries(DecisionKind kind, List<DecisionTarget> targets, JsonNode result,
                                              String operator, String reason, ChunkCommit commit, WriteTurn turn) {
        return passingOn(turn, () -> {
            try {
                return store.jdbc().inTransaction(() -> decideLocked(kind, targets, result, operator, reason, commit,
                        turn));
            } catch (WriteTurn.WaitedTooLong e) {
                // Rolled back, so the chunk before has this chunk's locks to take if it waits for one: go again.
                turn.awaitWithoutLocks();
                return decideEntries(kind, targets, result, operator, reason, commit, turn);
            } catch (DecisionRefusedException e) {
                return lostRace(kind, targets, result, e,
                        chunk -> decideEntries(kind, chunk, result, operator, reason, commit, turn.within()));
            } catch (StoreException e) {
                return refusedByStore(kind, targets, result, e);
            }
        });
    }

    private List<DecisionResult> decideLocked(DecisionKind kind, List<DecisionTarget> targets, JsonNode given,
                                              String operator, String reason, ChunkCommit commit, WriteTurn turn) {
        lock(targets);
        List<Checked> checks = engine.checkAll(targets, Checks.ENTRY_ONLY);
        DecisionState decision = kind == DecisionKind.RESOLVE ? DecisionState.RESOLVED : DecisionState.DISCARDED;
        Instant at = clock.instant();
        DecisionResult[] results = new DecisionResult[targets.size()];
        Set<Long> taken = new HashSet<>();
        Map<String, String> resolvedResults = new LinkedHashMap<>();
        List<String> discarded = new ArrayList<>();
        List<EntryVersion> entries = new ArrayList<>();
        List<AuditLine> audit = new ArrayList<>();
        for (int i = 0; i < checks.size(); i++) {
            Checked checked = checks.get(i);
            DecisionResult refusal = entryRefusal(kind, checked, given);
            PreconditionReport report = checked.report();
            if (refusal != null) {
                results[i] = refusal;
                continue;
            }
            if (!taken.add(report.dlqEntryId())) {
                results[i] = listedTwice(kind, report);
                continue;
            }
            JsonNode resolved = given != null ? given : appliedResult(checked.latestReconciliation());
            if (!checked.target().entryOnly()) {
                if (kind == DecisionKind.RESOLVE) {
                    resolvedResults.put(report.operationId(), resolved == null ? null : TriageJson.compact(resolved));
                } else {
                    discarded.add(report.operationId());
                }
            }
            entries.add(new EntryVersion(report.dlqEntryId(), report.entryVersion()));
            Map<String, Object> details = new LinkedHashMap<>();
            if (kind == DecisionKind.RESOLVE && resolved != null) {
                details.put("result", resolved);
            }
            details.put("decision", decision.name());
            audit.add(new AuditLine(at, operator, kind == DecisionKind.RESOLVE ? AuditAction.RESOLVE : AuditAction.DISCARD,
                    new AuditSubject(checked.target().operationId(), report.dlqEntryId(), null), reason, details));
            results[i] = new DecisionResult(kind, DecisionOutcome.DONE, checked.target().operationId(),
                    report.dlqEntryId(), "entry " + report.dlqEntryId() + " " + decision.name().toLowerCase(Locale.ROOT)
                    + " by " + operator, report, null, null, operator, at);
        }
        if (!resolvedResults.isEmpty()) {
            store.moveToSucceeded(resolvedResults, at);
        }
        if (!discarded.isEmpty()) {
            store.moveToDiscarded(discarded, at);
        }
        store.auditAll(audit);
        // The rows above are this chunk's own; deciding the entries locks the summary rows chunks share.
        turn.await();
        decide(entries, decision, operator, reason, at);
        commit.committing(targets, Arrays.stream(results).map(BatchItem::of).toList(), List.of());
        return Arrays.asList(results);
    }

    /** Why an item cannot get resolve or discard (unknown, no result to resolve with, entry not open); null if it can. */
    private DecisionResult entryRefusal(DecisionKind kind, Checked checked, JsonNode given) {
        if (checked.unknown() != null) {
            return unknown(kind, checked);
        }
        PreconditionReport report = checked.report();
        boolean needsResult = kind == DecisionKind.RESOLVE && !checked.target().entryOnly() && given == null
                && appliedResult(checked.latestReconciliation()) == null;
        if (needsResult) {
            return new DecisionResult(DecisionKind.RESOLVE, DecisionOutcome.BLOCKED, report.operationId(),
                    report.dlqEntryId(), "resolving needs the reconciled result: record an APPLIED reconciliation with "
                    + "its result, or give the result", report, null, null, null, null);
        }
        return report.allPassed() ? null : refused(kind, report);
    }

    static JsonNode appliedResult(ReconciliationRecord latest) {
        return latest != null && latest.outcome() == ReconciliationOutcome.APPLIED ? latest.result() : null;
    }

    // Shared --------------------------------------------------------------------------------------------------------

    /**
     * Decides, then passes the turn on. A failure leaves the turn to whoever runs the chunk (a batch's chunk runner
     * fails it, so that the next chunk writes nothing).
     */
    private static List<DecisionResult> passingOn(WriteTurn turn, Supplier<List<DecisionResult>> decide) {
        List<DecisionResult> results = decide.get();
        turn.pass();
        return results;
    }

    private void lock(List<DecisionTarget> targets) {
        store.lockAll(targets.stream().map(DecisionTarget::operationId).filter(Objects::nonNull).collect(Collectors.toSet()),
                targets.stream().map(DecisionTarget::dlqEntryId).filter(Objects::nonNull).collect(Collectors.toSet()));
    }

    private void decide(List<EntryVersion> entries, DecisionState decision, String operator, String reason, Instant at) {
        if (!entries.isEmpty()) {
            store.decideEntries(entries, decision, operator, reason, at);
        }
    }

    private DecisionResult unknown(DecisionKind kind, Checked checked) {
        if (throwUnknown) {
            throw checked.unknown();
        }
        DecisionTarget target = checked.target();
        return new DecisionResult(kind, DecisionOutcome.BLOCKED, target.operationId(), target.dlqEntryId(),
                checked.unknown().getMessage(), null, null, null, null, null);
    }

    /** The same entry twice in one chunk (by its operation and by its entry id, say): it is decided once. */
    private static DecisionResult listedTwice(DecisionKind kind, PreconditionReport report) {
        return new DecisionResult(kind, DecisionOutcome.ALREADY_DECIDED, report.operationId(), report.dlqEntryId(),
                "listed twice: decided once, as the earlier item", report, null, null, null, null);
    }

    /** A decision the checks refused: ALREADY_DECIDED when another decision got there first, BLOCKED otherwise. */
    static DecisionResult refused(DecisionKind kind, PreconditionReport report) {
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

    @FunctionalInterface
    private interface Redo {
        List<DecisionResult> decide(List<DecisionTarget> chunk);
    }

    /**
     * A guarded write found a row changed although the chunk held its locks (a writer that does not lock first). The
     * chunk was rolled back: a chunk of many is decided again item by item, so only the changed item loses; a single
     * item is told what the store now says.
     */
    private List<DecisionResult> lostRace(DecisionKind kind, List<DecisionTarget> targets, JsonNode result,
                                          DecisionRefusedException e, Redo redo) {
        if (targets.size() > 1) {
            List<DecisionResult> results = new ArrayList<>(targets.size());
            for (DecisionTarget target : targets) {
                results.addAll(redo.decide(List.of(target)));
            }
            return results;
        }
        List<DecisionResult> now = kind == DecisionKind.REDRIVE ? checkRedrive(targets) : checkEntries(kind, targets, result);
        return now.stream().map(item -> item.outcome() == DecisionOutcome.WOULD_PASS
                ? new DecisionResult(kind, e.outcome(), item.operationId(), item.dlqEntryId(), e.getMessage(),
                item.preconditions(), null, null, null, null)
                : item).toList();
    }

    /**
     * A role without the grants (or a guard in the database) refused the writes: the items that fail a check say so as
     * they would have, the others are REFUSED with the role and what it lacks. Anything else is rethrown.
     */
    private List<DecisionResult> refusedByStore(DecisionKind kind, List<DecisionTarget> targets, JsonNode result,
                                                StoreException e) {
        if (!e.isRefused()) {
            throw e;
        }
        String why = "refused by the database: " + whyRefused(database, e);
        List<DecisionResult> now = kind == DecisionKind.REDRIVE ? checkRedrive(targets) : checkEntries(kind, targets, result);
        return now.stream().map(item -> item.outcome() == DecisionOutcome.WOULD_PASS
                ? new DecisionResult(kind, DecisionOutcome.REFUSED, item.operationId(), item.dlqEntryId(), why,
                item.preconditions(), null, null, null, null)
                : item).toList();
    }

    /** The refusal in the operator's terms: which role, whether it is a viewer, what it lacks; then the database's line. */
    static String whyRefused(Database database, StoreException e) {
        String said = e.getMessage() == null ? "permission denied" : e.getMessage().lines().findFirst().orElse("");
        DecisionAccess access = DecisionAccess.of(database);
        return access.canDecide() ? said : access.readOnlyReason() + ": " + said;
    }
}
