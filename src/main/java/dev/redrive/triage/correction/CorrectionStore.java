package dev.redrive.triage.correction;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.command.IssuedCommand;
import dev.redrive.triage.decision.DecisionWriters;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionResult;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The writes of a correction, all inside its one transaction: the new operation (the node's next logical attempt,
 * PENDING, awaiting its command), the command, the original operation and its entry SUPERSEDED, the audit line. Every
 * change of state is a guarded statement whose row count is checked.
 */
final class CorrectionStore {
    private final DecisionWriters writers;

    CorrectionStore(Database database) {
        this.writers = DecisionWriters.on(database);
    }

    Jdbc jdbc() {
        return writers.jdbc();
    }

    /** Locks the operation and its own entries, in the order every decision locks them, until the transaction ends. */
    void lock(String operationId) {
        writers.locks().lock(operationId);
    }

    int highestLogicalAttempt(String runId, String nodeId) {
        return writers.operations().highestLogicalAttempt(runId, nodeId);
    }

    void insertCorrection(DispatchEnvelope correction, String corrects) {
        writers.operations().insertCorrection(correction, corrects);
    }

    /** The correction's command: it starts the new operation's first attempt, from none. */
    void insertCommand(UUID commandId, DispatchEnvelope correction, long entryId, String operator, String reason,
                       Instant at, List<PreconditionResult> preconditions) {
        writers.commands().issue(List.of(new IssuedCommand(commandId, correction.operationId().value(), entryId, 0,
                correction.attempt(), correction.toolSchemaVersion(), TriageJson.compact(preconditions))), operator,
                reason, at);
    }

    void supersede(String operationId, Instant at) {
        expectOne(writers.operations().supersede(operationId, at), "operation " + operationId + " is no longer dead-lettered");
    }

    void supersedeEntry(long entryId, int version, String correctionId, String operator, String reason, Instant at) {
        expectOne(writers.entries().supersede(entryId, version, correctionId, operator, reason, at),
                "DLQ entry " + entryId + " was decided or changed meanwhile");
    }

    void audit(AuditLine line) {
        writers.auditLog().append(line);
    }

    private static void expectOne(int rows, String lost) {
        if (rows == 0) {
            throw new LostRaceException(lost);
        }
        if (rows > 1) {
            throw new IllegalStateException("a guarded correction changed " + rows + " rows: " + lost);
        }
    }

    /** The guarded row changed first: the transaction is rolled back and the operator told who decided. */
    static final class LostRaceException extends RuntimeException {
        LostRaceException(String message) {
            super(message);
        }
    }
}
