package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.envelope.Traceparent;
import dev.redrive.model.DecisionState;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.triage.detail.ReconciliationOutcome;
import dev.redrive.triage.detail.ReconciliationSource;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.PreconditionResult;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The writes of triage decisions. Every state change is one guarded statement whose row count is checked against the
 * transition tables: 1 = done, 0 = someone changed the row first (the caller's transaction is rolled back).
 */
final class DecisionStore {
    private static final String LOCK_OPERATION = "SELECT operation_id FROM operations WHERE operation_id = ? FOR UPDATE";
    private static final String LOCK_ENTRIES = "SELECT id FROM dlq_entries WHERE operation_id = ? AND "
            + DeadLetterStore.OWN_ENTRY + " ORDER BY id FOR UPDATE";
    private static final String LOCK_ENTRY = "SELECT id FROM dlq_entries WHERE id = ? FOR UPDATE";

    private static final String INSERT_COMMAND = """
            INSERT INTO redrive_commands (command_id, operation_id, dlq_entry_id, operator, reason, issued_at,
                                          from_attempt, to_attempt, target_schema_version, preconditions, status,
                                          operator_traceparent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'ISSUED', ?)""";

    private static final String OPERATION_TO_PENDING = """
            UPDATE operations
               SET status = 'PENDING', attempt = attempt + 1, redrive_command_id = ?, tool_schema_version = ?,
                   next_eligible_at = NULL, lease_owner = NULL, lease_expires_at = NULL, dispatched_at = ?,
                   updated_at = ?
             WHERE operation_id = ? AND status = ? AND attempt = ?""";

    private static final String OPERATION_TO_SUCCEEDED = """
            UPDATE operations SET status = 'SUCCEEDED', result = ?, updated_at = ?
             WHERE operation_id = ? AND status = ?""";

    private static final String OPERATION_TO_DISCARDED = """
            UPDATE operations SET status = 'DISCARDED', updated_at = ?
             WHERE operation_id = ? AND status = ?""";

    private static final String DECIDE_ENTRY = """
            UPDATE dlq_entries
               SET decision_state = ?, decided_by = ?, decided_at = ?, decision_reason = ?, version = version + 1
             WHERE id = ? AND decision_state = ? AND version = ?""";

    private static final String INSERT_RECONCILIATION = """
            INSERT INTO reconciliations (operation_id, outcome, source, evidence, result, recorded_by, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id""";

    private static final String SETTLE_OPERATION_SIDE_EFFECT = """
            UPDATE operations SET side_effect = ?, updated_at = ? WHERE operation_id = ? AND status = 'DEAD_LETTERED'""";

    private static final String SETTLE_ENTRY_SIDE_EFFECT = """
            UPDATE dlq_entries SET side_effect = ?, version = version + 1
             WHERE operation_id = ? AND decision_state = 'OPEN' AND %s""".formatted(DeadLetterStore.OWN_ENTRY);

    private static final String APPEND_AUDIT = """
            INSERT INTO audit_log (at, actor, action, operation_id, dlq_entry_id, command_id, reason, details)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)""";

    private final Jdbc jdbc;

    DecisionStore(Database database) {
        this.jdbc = database.jdbc();
    }

    Jdbc jdbc() {
        return jdbc;
    }

    /** Locks the operation and its own entries, always in that order, until the transaction ends. */
    void lock(String operationId) {
        jdbc.query(LOCK_OPERATION, row -> row.getString(1), operationId);
        jdbc.query(LOCK_ENTRIES, row -> row.getLong(1), operationId);
    }

    /** Locks one DLQ entry without an operation until the transaction ends. */
    void lockEntry(long entryId) {
        jdbc.query(LOCK_ENTRY, row -> row.getLong(1), entryId);
    }

    /** Records a redrive command, with the operator's own trace when the console or CLI runs inside one. */
    void insertCommand(UUID commandId, String operationId, long entryId, String operator, String reason, Instant at,
                       int fromAttempt, String schemaVersion, List<PreconditionResult> preconditions) {
        jdbc.update(INSERT_COMMAND, commandId, operationId, entryId, operator, reason, at, fromAttempt, fromAttempt + 1,
                schemaVersion, new Json(TriageJson.compact(preconditions)), Traceparent.current());
    }

    void moveToPending(String operationId, int fromAttempt, UUID commandId, String schemaVersion, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.PENDING);
        expectOne(jdbc.update(OPERATION_TO_PENDING, commandId, schemaVersion, at, at, operationId,
                OperationStatus.DEAD_LETTERED, fromAttempt), "operation " + operationId + " changed while it was being redriven");
    }

    void moveToSucceeded(String operationId, JsonNode result, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.SUCCEEDED);
        expectOne(jdbc.update(OPERATION_TO_SUCCEEDED, Json.of(result == null ? null : TriageJson.compact(result)), at,
                operationId, OperationStatus.DEAD_LETTERED), "operation " + operationId + " is no longer dead-lettered");
    }

    void moveToDiscarded(String operationId, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.DISCARDED);
        expectOne(jdbc.update(OPERATION_TO_DISCARDED, at, operationId, OperationStatus.DEAD_LETTERED),
                "operation " + operationId + " is no longer dead-lettered");
    }

    void decideEntry(long entryId, int version, DecisionState decision, String operator, String reason, Instant at) {
        DecisionState.OPEN.checkTransition(decision);
        expectOne(jdbc.update(DECIDE_ENTRY, decision, operator, at, reason, entryId, DecisionState.OPEN, version),
                "DLQ entry " + entryId + " was decided or changed meanwhile");
    }

    long insertReconciliation(String operationId, ReconciliationOutcome outcome, ReconciliationSource source,
                              String evidence, JsonNode result, String operator, Instant at) {
        return jdbc.queryLong(INSERT_RECONCILIATION, operationId, outcome, source, evidence,
                Json.of(result == null ? null : TriageJson.compact(result)), operator, at);
    }

    /** Records the reconciled side effect on the operation and its open entry (whose version moves on). */
    void settleSideEffect(String operationId, SideEffectState state, Instant at) {
        expectOne(jdbc.update(SETTLE_OPERATION_SIDE_EFFECT, state, at, operationId),
                "operation " + operationId + " is no longer dead-lettered");
        jdbc.update(SETTLE_ENTRY_SIDE_EFFECT, state, operationId);
    }

    void audit(Instant at, String actor, String action, String operationId, Long entryId, UUID commandId, String reason,
               Map<String, Object> details) {
        jdbc.update(APPEND_AUDIT, at, actor, action, operationId, entryId, commandId, reason,
                new Json(TriageJson.compact(details)));
    }

    private static void expectOne(int rows, String lost) {
        if (rows == 0) {
            throw new DecisionRefusedException(DecisionOutcome.ALREADY_DECIDED, lost);
        }
        if (rows > 1) {
            throw new IllegalStateException("a guarded decision changed " + rows + " rows: " + lost);
        }
    }
}
