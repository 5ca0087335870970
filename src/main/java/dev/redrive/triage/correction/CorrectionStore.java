package dev.redrive.triage.correction;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.Traceparent;
import dev.redrive.model.DecisionState;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionResult;

import java.time.Instant;
import java.util.List;
import java.util.Map;
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

    private static final String HIGHEST_LOGICAL_ATTEMPT =
            "SELECT max(logical_attempt) FROM operations WHERE run_id = ? AND node_id = ?";

    private static final String INSERT_CORRECTION = """
            INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                    tool_schema_version, idempotency_key, payload, approval_id, trace_id,
                                    correlation_id, runtime_version, redrive_command_id, dispatched_at, traceparent,
                                    corrects, created_at, updated_at)
            VALUES (?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    private static final String INSERT_COMMAND = """
            INSERT INTO redrive_commands (command_id, operation_id, dlq_entry_id, operator, reason, issued_at,
                                          from_attempt, to_attempt, target_schema_version, preconditions, status,
                                          operator_traceparent)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 'ISSUED', ?)""";

    private static final String SUPERSEDE_OPERATION = """
            UPDATE operations SET status = 'SUPERSEDED', updated_at = ?
             WHERE operation_id = ? AND status = ?""";

    private static final String SUPERSEDE_ENTRY = """
            UPDATE dlq_entries
               SET decision_state = 'SUPERSEDED', superseded_by = ?, decided_by = ?, decided_at = ?,
                   decision_reason = ?, version = version + 1
             WHERE id = ? AND decision_state = 'OPEN' AND version = ?""";

    private static final String APPEND_AUDIT = """
            INSERT INTO audit_log (at, actor, action, operation_id, dlq_entry_id, command_id, reason, details)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)""";

    private final Jdbc jdbc;

    CorrectionStore(Database database) {
        this.jdbc = database.jdbc();
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
        return (int) jdbc.queryLong(HIGHEST_LOGICAL_ATTEMPT, runId, nodeId);
    }

    /** The correction as a recorded operation awaiting its command; the unique {@code corrects} lets one in per original. */
    void insertCorrection(DispatchEnvelope correction, String corrects) {
        jdbc.update(INSERT_CORRECTION, correction.operationId().value(), correction.runId(), correction.nodeId(),
                correction.logicalAttempt(), correction.attempt(), correction.tool(), correction.toolSchemaVersion(),
                correction.idempotencyKey(), new Json(correction.payload()), correction.approvalId(),
                correction.traceId(), correction.correlationId(), correction.runtimeVersion(),
                UUID.fromString(correction.redriveCommandId()), correction.dispatchedAt(), correction.traceparent(),
                corrects, correction.dispatchedAt(), correction.dispatchedAt());
    }

    void insertCommand(UUID commandId, DispatchEnvelope correction, long entryId, String operator, String reason,
                       Instant at, List<PreconditionResult> preconditions) {
        jdbc.update(INSERT_COMMAND, commandId, correction.operationId().value(), entryId, operator, reason, at,
                correction.attempt(), correction.toolSchemaVersion(), new Json(TriageJson.compact(preconditions)),
                Traceparent.current());
    }

    void supersede(String operationId, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.SUPERSEDED);
        expectOne(jdbc.update(SUPERSEDE_OPERATION, at, operationId, OperationStatus.DEAD_LETTERED),
                "operation " + operationId + " is no longer dead-lettered");
    }

    void supersedeEntry(long entryId, int version, String correctionId, String operator, String reason, Instant at) {
        DecisionState.OPEN.checkTransition(DecisionState.SUPERSEDED);
        expectOne(jdbc.update(SUPERSEDE_ENTRY, correctionId, operator, at, reason, entryId, version),
                "DLQ entry " + entryId + " was decided or changed meanwhile");
    }

    void audit(Instant at, String actor, String action, String operationId, Long entryId, UUID commandId, String reason,
               Map<String, Object> details) {
        jdbc.update(APPEND_AUDIT, at, actor, action, operationId, entryId, commandId, reason,
                new Json(TriageJson.compact(details)));
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
