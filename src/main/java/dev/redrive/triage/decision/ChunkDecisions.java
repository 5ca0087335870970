package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.redrive.model.DecisionState;
import dev.redrive.store.Database;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.deadletter.EntryDecisionStore.EntryVersion;
import dev.redrive.store.operation.OperationDecisionStore.RedriveMove;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.decision.RedriveDispatches.Issued;
import dev.redrive.triage.decision.RedriveDispatches.Redrive;
import dev.redrive.triage.detail.OperationRecord;
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
    private final DecisionStore store;
    private final PreconditionEngine engine;
    private final RedriveDispatches dispatches;
    private final FailedChunks failed;
    private final Clock clock;
    private final boolean throwUnknown;

    /**
     * @param throwUnknown a target the store does not know is thrown ({@code UnknownOperationException}, ...) rather
     *                     than reported as a blocked item: one decision fails on it, a batch goes on
     */
    ChunkDecisions(Database database, DecisionStore store, PreconditionEngine engine, DispatchPublisher publisher,
                   Clock clock, boolean throwUnknown) {
        this.store = store;
        this.engine = engine;
        this.dispatches = new RedriveDispatches(publisher, store, clock);
        this.failed = new FailedChunks(database);
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
            return passingOn(turn, () -> failed.lostRace(DecisionKind.REDRIVE, targets, e,
                    chunk -> redrive(chunk, operator, reason, commit, turn.within()), this::checkRedrive));
        } catch (StoreException e) {
            return passingOn(turn, () -> failed.refusedByStore(DecisionKind.REDRIVE, targets, e, this::checkRedrive));
        }
        turn.pass();
        return dispatches.publish(issued, operator, reason);
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
        Issued issued = new Issued(results, redrives, at);
        commit.committing(targets, issued.items(), redrives.stream().map(Redrive::commandId).toList());
        return issued;
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
                return failed.lostRace(kind, targets, e,
                        chunk -> decideEntries(kind, chunk, result, operator, reason, commit, turn.within()),
                        chunk -> checkEntries(kind, chunk, result));
            } catch (StoreException e) {
                return failed.refusedByStore(kind, targets, e, chunk -> checkEntries(kind, chunk, result));
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
                    + "its result, or give the result (CLI: --result JSON; console: the Result field)", report, null, null, null, null);
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
}
