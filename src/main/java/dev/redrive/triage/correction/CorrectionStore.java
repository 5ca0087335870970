package dev.redrive.triage.correction;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.Traceparent;
import dev.redrive.model.DecisionState;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLog;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.store.operation.OperationDecisionStore;
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
    private static final String LOCK_OPERATION = "SELECT operation_id FROM operations WHERE operation_id = ? FOR UPDATE";
    private static final String LOCK_ENTRIES = "SELECT id FROM dlq_entries WHERE operation_id = ? AND "
            + DeadLetterStore.OWN_ENTRY + " ORDER BY id FOR UPDATE";

    private static final String INSERT_COMMAND = """
            INSERT INTO redrive_commands (command_id, operation_id, dlq_entry_id, operator, reason, issued_at,
                                          from_attempt, to_attempt, target_schema_version, preconditions, status,
                                          operator_traceparent)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 'ISSUED', ?)""";

    private static final String SUPERSEDE_ENTRY = """
            UPDATE dlq_entries
               SET decision_state = 'SUPERSEDED', superseded_by = ?, decided_by = ?, decided_at = ?,
                   decision_reason = ?, version = version + 1
             WHERE id = ? AND decision_state = 'OPEN' AND version = ?""";

    private final Jdbc jdbc;
    private final OperationDecisionStore operations;
    private final AuditLog auditLog;

    CorrectionStore(Database database) {
        this.jdbc = database.jdbc();
        this.operations = new OperationDecisionStore(jdbc);
        this.auditLog = new AuditLog(jdbc);
    }

    Jdbc jdbc() {
        return jdbc;
    }

    /** Locks the operation and its own entries, in the order every decision locks them, until the transaction ends. */
    void lock(String operationId) {
        jdbc.query(LOCK_OPERATION, row -> row.getString(1), operationId);
        jdbc.query(LOCK_ENTRIES, row -> row.getLong(1), operationId);
    }

    int highestLogicalAttempt(String runId, String nodeId) {
        return operations.highestLogicalAttempt(runId, nodeId);
    }

    void insertCorrection(DispatchEnvelope correction, String corrects) {
        operations.insertCorrection(correction, corrects);
    }

    void insertCommand(UUID commandId, DispatchEnvelope correction, long entryId, String operator, String reason,
                       Instant at, List<PreconditionResult> preconditions) {
        jdbc.update(INSERT_COMMAND, commandId, correction.operationId().value(), entryId, operator, reason, at,
                correction.attempt(), correction.toolSchemaVersion(), new Json(TriageJson.compact(preconditions)),
                Traceparent.current());
    }

    void supersede(String operationId, Instant at) {
        expectOne(operations.supersede(operationId, at), "operation " + operationId + " is no longer dead-lettered");
    }

    void supersedeEntry(long entryId, int version, String correctionId, String operator, String reason, Instant at) {
        DecisionState.OPEN.checkTransition(DecisionState.SUPERSEDED);
        expectOne(jdbc.update(SUPERSEDE_ENTRY, correctionId, operator, at, reason, entryId, version),
                "DLQ entry " + entryId + " was decided or changed meanwhile");
    }

    void audit(AuditLine line) {
        auditLog.append(line);
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
