package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.DecisionState;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.command.DecisionLocks;
import dev.redrive.store.command.IssuedCommand;
import dev.redrive.store.deadletter.EntryDecisionStore;
import dev.redrive.store.deadletter.EntryDecisionStore.EntryVersion;
import dev.redrive.store.operation.OperationDecisionStore;
import dev.redrive.store.operation.OperationDecisionStore.RedriveMove;
import dev.redrive.store.reconciliation.ReconciliationFinding;
import dev.redrive.store.reconciliation.ReconciliationLog;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
import dev.redrive.triage.json.TriageJson;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The writes of triage decisions. Every state change is one guarded statement whose row count is checked against the
 * transition tables: 1 = done, 0 = someone changed the row first (the caller's transaction is rolled back).
 */
final class DecisionStore {
    private final DecisionWriters writers;
    private final OperationDecisionStore operations;
    private final EntryDecisionStore entries;
    private final ReconciliationLog reconciliations;

    DecisionStore(Database database) {
        this.writers = DecisionWriters.on(database);
        this.operations = writers.operations();
        this.entries = writers.entries();
        this.reconciliations = new ReconciliationLog(writers.jdbc());
    }

    Jdbc jdbc() {
        return writers.jdbc();
    }

    /** Locks the operation and its own entries until the transaction ends (see {@link DecisionLocks}). */
    void lock(String operationId) {
        writers.locks().lock(operationId);
    }

    /** Locks the operations named and those the named entries were entered for, then their entries. */
    void lockAll(Collection<String> operationIds, Collection<Long> entryIds) {
        writers.locks().lockAll(operationIds, entryIds);
    }

    /** Records the redrive commands of a chunk, each for the attempt after its operation's last. */
    void insertCommands(List<RedriveMove> moves, String operator, String reason, Instant at) {
        writers.commands().issue(moves.stream().map(move -> new IssuedCommand(move.commandId(), move.operationId(),
                move.entryId(), move.fromAttempt(), move.fromAttempt() + 1, move.schemaVersion(),
                move.preconditions())).toList(), operator, reason, at);
    }

    void moveToPending(List<RedriveMove> commands, Instant at) {
        expect(commands.size(), operations.redriveAll(commands, at), "an operation changed while it was being redriven");
    }

    /** Marks operations succeeded, each with its result (JSON text, or null). */
    void moveToSucceeded(Map<String, String> resultByOperation, Instant at) {
        expect(resultByOperation.size(), operations.resolveAll(resultByOperation, at),
                "an operation is no longer dead-lettered");
    }

    void moveToDiscarded(Collection<String> operationIds, Instant at) {
        expect(operationIds.size(), operations.discardAll(operationIds, at), "an operation is no longer dead-lettered");
    }

    /** Cancels a pending retry of {@code attempt}; someone who changed the operation first makes it ALREADY_DECIDED. */
    void cancelRetry(String operationId, int attempt, OperationStatus to, String result, Instant at) {
        expect(1, operations.cancelRetry(operationId, attempt, to, result, at),
                "operation " + operationId + " left RETRY_SCHEDULED meanwhile");
    }

    void decideEntries(List<EntryVersion> decided, DecisionState decision, String operator, String reason, Instant at) {
        expect(decided.size(), entries.decideAll(decided, decision, operator, reason, at),
                "a DLQ entry was decided or changed meanwhile");
    }

    long insertReconciliation(String operationId, ReconciliationOutcome outcome, ReconciliationSource source,
                              String evidence, JsonNode result, String operator, Instant at) {
        return reconciliations.record(operationId, new ReconciliationFinding(outcome, source, evidence,
                result == null ? null : TriageJson.compact(result), operator), at);
    }

    /** Records the reconciled side effect on the operation and its open entry (whose version moves on). */
    void settleSideEffect(String operationId, SideEffectState state, Instant at) {
        expect(1, operations.settleSideEffect(operationId, state, at),
                "operation " + operationId + " is no longer dead-lettered");
        entries.settleSideEffect(operationId, state);
    }

    void audit(Instant at, String actor, AuditAction action, String operationId, Long entryId, UUID commandId,
               String reason, Map<String, Object> details) {
        writers.auditLog().append(new AuditLine(at, actor, action, new AuditSubject(operationId, entryId, commandId), reason,
                details));
    }

    /** Appends the lines of a chunk, in order, in one batch. */
    void auditAll(List<AuditLine> lines) {
        if (!lines.isEmpty()) {
            writers.auditLog().appendAll(lines);
        }
    }

    private static void expect(int expected, int rows, String lost) {
        if (rows < expected) {
            throw new DecisionRefusedException(DecisionOutcome.ALREADY_DECIDED, lost);
        }
        if (rows > expected) {
            throw new IllegalStateException("a guarded decision changed " + rows + " rows instead of " + expected + ": " + lost);
        }
    }
}
