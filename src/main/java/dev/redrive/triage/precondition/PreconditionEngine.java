package dev.redrive.triage.precondition;

import dev.redrive.model.DecisionState;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.triage.detail.ApprovalRecord;
import dev.redrive.triage.detail.AuditEntry;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.detail.OperationRecord;
import dev.redrive.triage.detail.ReconciliationRecord;
import dev.redrive.triage.detail.RunRecord;
import dev.redrive.triage.detail.UnknownEntryException;
import dev.redrive.triage.detail.UnknownOperationException;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Checks every redrive precondition against the store's current facts and explains each verdict. Read-only: inside a
 * transaction that holds the rows' locks it is the re-check a decision commits on. One item and a chunk of a batch are
 * checked the same way: the facts of every item are read with one statement per kind of fact ({@link #checkAll}), and
 * a single check is a chunk of one.
 */
public final class PreconditionEngine {
    private final OperationDetailsLoader loader;
    private final Clock clock;

    public PreconditionEngine(Database database, Clock clock) {
        this.loader = new OperationDetailsLoader(database);
        this.clock = clock;
    }

    /** Which checks to run: all five of a redrive, or only the entry check that resolve and discard need. */
    public enum Checks { REDRIVE, ENTRY_ONLY }

    /**
     * What {@link #checkAll} found for one target.
     *
     * @param target               the target as the store knows it ({@link #resolve}); the named one when unknown
     * @param operation            the operation, null for an entry without one or an unknown target
     * @param latestReconciliation the operation's latest reconciliation, null when none
     * @param unknown              the failure when the target names an operation or entry the store does not know;
     *                             {@code report} is null then
     */
    public record Checked(DecisionTarget target, PreconditionReport report, OperationRecord operation,
                          ReconciliationRecord latestReconciliation, RuntimeException unknown) {

        /** The report, or the unknown target's failure thrown. */
        public PreconditionReport reportOrThrow() {
            if (unknown != null) {
                throw unknown;
            }
            return report;
        }
    }

    /**
     * The target as the store knows it: a DLQ entry named alone becomes its operation's target when it was entered for
     * one, and stays an entry-only target when it is a message dead-lettered as itself. An entry named with an
     * operation it only names (a conflicting dispatch's) is that entry alone: the operator looked at that entry, and
     * deciding the operation for it would leave the operation's own entry open. Fails on an unknown entry named alone.
     */
    public DecisionTarget resolve(DecisionTarget target) {
        if (target.dlqEntryId() == null) {
            return target;
        }
        return resolve(target, loader.entry(target.dlqEntryId()).orElse(null));
    }

    private DecisionTarget resolve(DecisionTarget target, DlqEntryRecord entry) {
        if (target.dlqEntryId() == null) {
            return target;
        }
        if (target.operationId() == null) {
            if (entry == null) {
                throw loader.unknownEntry(target.dlqEntryId());
            }
            return entry.ofOperation()
                    ? new DecisionTarget(entry.operationId(), entry.id(), target.seenVersion(), target.chosenSchemaVersion())
                    : target;
        }
        boolean onlyNamesIt = entry != null && !entry.ofOperation();
        return onlyNamesIt ? new DecisionTarget(null, target.dlqEntryId(), target.seenVersion(), null) : target;
    }

    /**
     * All five checks for a redrive. A DLQ entry without an operation of its own fails {@link PreconditionId#OWN_OPERATION}
     * (nothing was recorded to run again) beside its entry check, so a batch or a wizard meets it as a blocked redrive
     * that can still be discarded or resolved, never as an error.
     */
    public PreconditionReport check(DecisionTarget named) {
        return checkAll(List.of(named), Checks.REDRIVE).get(0).reportOrThrow();
    }

    /**
     * Only the entry check: what resolve and discard need. For a DLQ entry without an operation it is the only check
     * there is (run, schema, approval and side effect belong to an operation).
     */
    public PreconditionReport checkEntryOnly(DecisionTarget named) {
        return checkAll(List.of(named), Checks.ENTRY_ONLY).get(0).reportOrThrow();
    }

    /**
     * Checks many targets at once, in the order given: the facts of all of them are read with one statement per kind
     * (entries, operations, their own entries, runs, reconciliations, schema versions, approvals), then each target is
     * judged by the same rules as a single check. An unknown target is reported in its result, not thrown.
     */
    public List<Checked> checkAll(List<DecisionTarget> named, Checks checks) {
        Facts facts = Facts.load(loader, named);
        Instant now = clock.instant();
        List<Checked> checked = new ArrayList<>(named.size());
        for (DecisionTarget target : named) {
            try {
                checked.add(check(facts, resolve(target, facts.namedEntry(target)), checks, now));
            } catch (UnknownEntryException | UnknownOperationException e) {
                checked.add(new Checked(target, null, null, null, e));
            }
        }
        return checked;
    }

    private Checked check(Facts facts, DecisionTarget target, Checks checks, Instant now) {
        if (target.entryOnly()) {
            DlqEntryRecord entry = facts.entries.get(target.dlqEntryId());
            PreconditionResult open = entryWithoutOperationOpen(entry, target.seenVersion());
            List<PreconditionResult> results = checks == Checks.REDRIVE ? List.of(noOperation(entry), open) : List.of(open);
            return new Checked(target, new PreconditionReport(null, entry.id(), entry.version(), 0, null, now, results),
                    null, null, null);
        }
        OperationRecord operation = facts.operations.get(target.operationId());
        if (operation == null) {
            throw loader.unknownOperation(target.operationId());
        }
        DlqEntryRecord entry = target.dlqEntryId() == null ? facts.ownEntries.get(operation.operationId())
                : Optional.ofNullable(facts.entries.get(target.dlqEntryId()))
                .filter(found -> found.ofOperation() && operation.operationId().equals(found.operationId())).orElse(null);
        ReconciliationRecord reconciliation = facts.reconciliations.get(operation.operationId());
        // Discarded while it waited for its retry, the operation has no entry: its audit line says who decided it.
        AuditEntry discarded = entry == null && target.dlqEntryId() == null
                ? facts.retryDiscards.get(operation.operationId()) : null;
        PreconditionResult open = entryOpen(operation, entry, target.seenVersion(), discarded);
        List<PreconditionResult> results;
        String targetVersion;
        if (checks == Checks.REDRIVE) {
            targetVersion = target.chosenSchemaVersion() != null ? target.chosenSchemaVersion() : operation.toolSchemaVersion();
            results = List.of(
                    runActive(operation, facts.runs.get(operation.runId())),
                    toolSchema(operation, facts.currentSchemas.get(operation.tool()), target.chosenSchemaVersion()),
                    approval(operation, operation.approvalId() == null ? null : facts.approvals.get(operation.approvalId()), now),
                    sideEffect(operation, reconciliation),
                    open);
        } else {
            targetVersion = operation.toolSchemaVersion();
            results = List.of(open);
        }
        return new Checked(target, new PreconditionReport(operation.operationId(), entry == null ? null : entry.id(),
                entry == null ? null : entry.version(), operation.attempt(), targetVersion, now, results),
                operation, reconciliation, null);
    }

    /** Every fact the checks of a chunk look at, read with one statement per kind. */
    private record Facts(Map<Long, DlqEntryRecord> entries, Map<String, OperationRecord> operations,
                         Map<String, DlqEntryRecord> ownEntries, Map<String, RunRecord> runs,
                         Map<String, ReconciliationRecord> reconciliations, Map<String, String> currentSchemas,
                         Map<String, ApprovalRecord> approvals, Map<String, AuditEntry> retryDiscards) {

        static Facts load(OperationDetailsLoader loader, List<DecisionTarget> named) {
            Map<Long, DlqEntryRecord> entries = loader.entries(named.stream().map(DecisionTarget::dlqEntryId)
                    .filter(Objects::nonNull).collect(Collectors.toSet()));
            Set<String> operationIds = new HashSet<>();
            Set<String> withoutEntry = new HashSet<>();
            for (DecisionTarget target : named) {
                DlqEntryRecord entry = target.dlqEntryId() == null ? null : entries.get(target.dlqEntryId());
                String operationId = target.operationId() != null ? target.operationId()
                        : entry != null && entry.ofOperation() ? entry.operationId() : null;
                if (operationId != null) {
                    operationIds.add(operationId);
                    if (target.dlqEntryId() == null) {
                        withoutEntry.add(operationId);
                    }
                }
            }
            Map<String, OperationRecord> operations = loader.operations(operationIds);
            Collection<OperationRecord> found = operations.values();
            Map<String, DlqEntryRecord> ownEntries = loader.entriesOf(withoutEntry);
            // An operation discarded while it waited for its retry never had an entry: who discarded it is in the log.
            Set<String> discardedWithoutEntry = withoutEntry.stream().filter(id -> !ownEntries.containsKey(id))
                    .filter(id -> operations.containsKey(id)
                            && operations.get(id).status() == OperationStatus.DISCARDED)
                    .collect(Collectors.toSet());
            return new Facts(entries, operations, ownEntries,
                    loader.runs(distinct(found, OperationRecord::runId)),
                    loader.latestReconciliations(operations.keySet()),
                    loader.currentSchemaVersions(distinct(found, OperationRecord::tool)),
                    loader.approvals(distinct(found, OperationRecord::approvalId)),
                    loader.latestDiscards(discardedWithoutEntry));
        }

        DlqEntryRecord namedEntry(DecisionTarget target) {
            return target.dlqEntryId() == null ? null : entries.get(target.dlqEntryId());
        }

        private static Set<String> distinct(Collection<OperationRecord> operations, Function<OperationRecord, String> field) {
            return operations.stream().map(field).filter(Objects::nonNull).collect(Collectors.toSet());
        }
    }

    static PreconditionResult runActive(OperationRecord operation, RunRecord run) {
        Map<String, Object> facts = facts("run_id", operation.runId());
        if (run == null) {
            facts.put("run_status", null);
            return PreconditionResult.fail(PreconditionId.RUN_ACTIVE,
                    "run " + operation.runId() + " is unknown to the operation store", facts);
        }
        facts.put("run_status", run.status().name());
        facts.put("status_reason", run.statusReason());
        facts.put("run_updated_at", text(run.updatedAt()));
        if (run.status() == RunStatus.RUNNING) {
            return PreconditionResult.pass(PreconditionId.RUN_ACTIVE, "run " + run.runId() + " is still RUNNING", facts);
        }
        String why = run.statusReason() == null ? "" : " (" + run.statusReason() + ")";
        return PreconditionResult.fail(PreconditionId.RUN_ACTIVE, "run " + run.runId() + " is " + run.status()
                + why + ": nothing of it may run again", facts);
    }

    static PreconditionResult toolSchema(OperationRecord operation, String current, String chosen) {
        String tool = operation.tool();
        String dispatched = operation.toolSchemaVersion();
        Map<String, Object> facts = facts("tool", tool);
        facts.put("dispatched_version", dispatched);
        facts.put("current_version", current);
        facts.put("chosen_version", chosen);
        if (current == null) {
            return PreconditionResult.fail(PreconditionId.TOOL_SCHEMA, "no worker has registered a schema version for "
                    + tool + ", so nobody can tell whether it changed since dispatch (version " + dispatched + ")", facts);
        }
        if (chosen != null) {
            if (chosen.equals(current)) {
                return PreconditionResult.pass(PreconditionId.TOOL_SCHEMA, "the operator chose version " + chosen
                        + " of " + tool + " (dispatched with " + dispatched + "), which is the current one", facts);
            }
            return PreconditionResult.fail(PreconditionId.TOOL_SCHEMA, "the chosen version " + chosen + " is not the current "
                    + "schema version of " + tool + " (" + current + ")", facts);
        }
        if (current.equals(dispatched)) {
            return PreconditionResult.pass(PreconditionId.TOOL_SCHEMA, tool + " is still at schema version " + current
                    + ", the one the operation was dispatched with", facts);
        }
        return PreconditionResult.fail(PreconditionId.TOOL_SCHEMA, tool + " changed its schema from version " + dispatched
                + " to " + current + " since dispatch; check the payload and choose version " + current
                + " explicitly if it is compatible", facts);
    }

    private static PreconditionResult approval(OperationRecord operation, ApprovalRecord approval, Instant now) {
        Map<String, Object> facts = facts("approval_id", operation.approvalId());
        if (operation.approvalId() == null) {
            return PreconditionResult.pass(PreconditionId.APPROVAL, "the operation needs no approval", facts);
        }
        return approval(operation.approvalId(), approval, now, facts);
    }

    static PreconditionResult approval(String approvalId, ApprovalRecord approval, Instant now, Map<String, Object> facts) {
        facts.put("checked_at", text(now));
        if (approval == null) {
            return PreconditionResult.fail(PreconditionId.APPROVAL, "approval " + approvalId + " does not exist", facts);
        }
        facts.put("scope", approval.scope());
        facts.put("granted_by", approval.grantedBy());
        facts.put("granted_at", text(approval.grantedAt()));
        facts.put("expires_at", text(approval.expiresAt()));
        facts.put("revoked_at", text(approval.revokedAt()));
        facts.put("revoked_by", approval.revokedBy());
        if (approval.revokedAt() != null) {
            String reason = approval.revokeReason() == null ? "" : ": " + approval.revokeReason();
            return PreconditionResult.fail(PreconditionId.APPROVAL, "approval " + approvalId + " was revoked by "
                    + approval.revokedBy() + " at " + approval.revokedAt() + reason, facts);
        }
        if (!approval.isValidAt(now)) {
            return PreconditionResult.fail(PreconditionId.APPROVAL, "approval " + approvalId + " expired at "
                    + approval.expiresAt(), facts);
        }
        String until = approval.expiresAt() == null ? "without expiry" : "until " + approval.expiresAt();
        return PreconditionResult.pass(PreconditionId.APPROVAL, "approval " + approvalId + " granted by "
                + approval.grantedBy() + " is valid " + until, facts);
    }

    static PreconditionResult sideEffect(OperationRecord operation, ReconciliationRecord reconciliation) {
        SideEffectState state = operation.sideEffect();
        Map<String, Object> facts = facts("side_effect", state.name());
        facts.put("idempotency_key", operation.idempotencyKey());
        if (reconciliation != null) {
            facts.put("reconciliation", reconciliation.outcome().name());
            facts.put("reconciled_by", reconciliation.recordedBy());
            facts.put("reconciled_at", text(reconciliation.recordedAt()));
            facts.put("reconciliation_source", reconciliation.source().name());
            facts.put("evidence", reconciliation.evidence());
            // Resolving takes the reconciled result: whether there is one tells what the operator can still decide.
            facts.put("result_recorded", reconciliation.result() != null);
        }
        return switch (state) {
            case NONE -> PreconditionResult.pass(PreconditionId.SIDE_EFFECT,
                    "no side effect can have happened (state NONE)", facts);
            case NOT_APPLIED -> PreconditionResult.pass(PreconditionId.SIDE_EFFECT,
                    "reconciliation found the effect was not applied" + by(reconciliation) + ": re-running is safe", facts);
            case POSSIBLE -> PreconditionResult.fail(PreconditionId.SIDE_EFFECT,
                    "the side effect is uncertain (POSSIBLE): reconcile first, by the tool's look-up of idempotency key "
                            + operation.idempotencyKey() + " or with recorded evidence", facts);
            case APPLIED -> PreconditionResult.fail(PreconditionId.SIDE_EFFECT,
                    "reconciliation found the effect was already applied" + by(reconciliation)
                            + ": resolve the operation as succeeded instead of running it again", facts);
        };
    }

    static PreconditionResult entryOpen(OperationRecord operation, DlqEntryRecord entry, Integer seenVersion,
                                        AuditEntry discarded) {
        Map<String, Object> facts = facts("operation_status", operation.status().name());
        if (entry == null && discarded != null) {
            facts.put("decision_state", DecisionState.DISCARDED.name());
            facts.put("decided_by", discarded.actor());
            facts.put("decided_at", text(discarded.at()));
            return PreconditionResult.fail(PreconditionId.ENTRY_OPEN, "already decided by " + discarded.actor() + " at "
                    + discarded.at() + " (DISCARDED while it waited for its retry"
                    + (discarded.reason() == null ? "" : ": " + discarded.reason()) + ")", facts);
        }
        if (entry == null) {
            return PreconditionResult.fail(PreconditionId.ENTRY_OPEN, "operation " + operation.operationId()
                    + " has no DLQ entry to decide", facts);
        }
        Optional<PreconditionResult> closed = closedOrChanged(entry, seenVersion, facts);
        if (closed.isPresent()) {
            return closed.get();
        }
        if (operation.status() != OperationStatus.DEAD_LETTERED) {
            return PreconditionResult.fail(PreconditionId.ENTRY_OPEN, "operation " + operation.operationId() + " is "
                    + operation.status() + ", not DEAD_LETTERED", facts);
        }
        return PreconditionResult.pass(PreconditionId.ENTRY_OPEN, "entry " + entry.id() + " is still OPEN at version "
                + entry.version(), facts);
    }

    static PreconditionResult noOperation(DlqEntryRecord entry) {
        Map<String, Object> facts = facts("dlq_entry_id", entry.id());
        facts.put("named_operation_id", entry.operationId());
        facts.put("error_code", entry.errorCode());
        return PreconditionResult.fail(PreconditionId.OWN_OPERATION, "DLQ entry " + entry.id() + " is a message "
                + "dead-lettered as itself (" + entry.errorCode() + ")"
                + (entry.operationId() == null ? "" : ", not an attempt of " + entry.operationId() + " it names")
                + ": nothing was recorded to run again; discard or resolve it by its entry id", facts);
    }

    /** The entry check of a message dead-lettered as itself: there is no operation whose status could matter. */
    static PreconditionResult entryWithoutOperationOpen(DlqEntryRecord entry, Integer seenVersion) {
        Map<String, Object> facts = facts("operation_status", null);
        return closedOrChanged(entry, seenVersion, facts).orElseGet(() -> PreconditionResult.pass(PreconditionId.ENTRY_OPEN,
                "entry " + entry.id() + " is still OPEN at version " + entry.version()
                        + " (no operation: the operation's checks do not apply)", facts));
    }

    /** The failure when the entry was decided already or changed since the operator saw it; adds the entry's facts. */
    private static Optional<PreconditionResult> closedOrChanged(DlqEntryRecord entry, Integer seenVersion,
                                                                Map<String, Object> facts) {
        facts.put("dlq_entry_id", entry.id());
        facts.put("decision_state", entry.decisionState().name());
        facts.put("version", entry.version());
        facts.put("seen_version", seenVersion);
        facts.put("decided_by", entry.decidedBy());
        facts.put("decided_at", text(entry.decidedAt()));
        if (!entry.isOpen()) {
            return Optional.of(PreconditionResult.fail(PreconditionId.ENTRY_OPEN, alreadyDecided(entry), facts));
        }
        if (seenVersion != null && seenVersion != entry.version()) {
            return Optional.of(PreconditionResult.fail(PreconditionId.ENTRY_OPEN, "entry " + entry.id()
                    + " changed since you looked at it (version " + entry.version() + ", you saw " + seenVersion
                    + "): look again before deciding", facts));
        }
        return Optional.empty();
    }

    /**
     * "already decided by alice at 2026-11-30T01:02:03Z (REDRIVEN: reason)"; a superseded entry names its correction:
     * "(SUPERSEDED by correction r1:charge:1: reason)".
     */
    public static String alreadyDecided(DlqEntryRecord entry) {
        String reason = entry.decisionReason() == null ? "" : ": " + entry.decisionReason();
        String correction = entry.supersededBy() == null ? "" : " by correction " + entry.supersededBy();
        return "already decided by " + Objects.toString(entry.decidedBy(), "someone") + " at "
                + Objects.toString(entry.decidedAt(), "an unknown time") + " (" + entry.decisionState() + correction
                + reason + ")";
    }

    private static String by(ReconciliationRecord reconciliation) {
        return reconciliation == null ? "" : " (" + reconciliation.source().name().toLowerCase(Locale.ROOT)
                + " " + reconciliation.recordedBy() + " at " + reconciliation.recordedAt() + ")";
    }

    private static Map<String, Object> facts(String key, Object value) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put(key, value);
        return facts;
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
