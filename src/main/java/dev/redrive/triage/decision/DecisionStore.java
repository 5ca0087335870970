package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.envelope.Traceparent;
import dev.redrive.model.DecisionState;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLog;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.store.operation.OperationDecisionStore;
import dev.redrive.store.reconciliation.ReconciliationFinding;
import dev.redrive.store.reconciliation.ReconciliationLog;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
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

    private static final String DECIDE_ENTRY = """
            UPDATE dlq_entries
               SET decision_state = ?, decided_by = ?, decided_at = ?, decision_reason = ?, version = version + 1
             WHERE id = ? AND decision_state = ? AND version = ?""";

    private static final String SETTLE_ENTRY_SIDE_EFFECT = """
            UPDATE dlq_entries SET side_effect = ?, version = version + 1
             WHERE operation_id = ? AND decision_state = 'OPEN' AND %s""".formatted(DeadLetterStore.OWN_ENTRY);

    private final Jdbc jdbc;
    private final AuditLog auditLog;
    private final ReconciliationLog reconciliations;
    private final OperationDecisionStore operations;

    DecisionStore(Database database) {
        this.jdbc = database.jdbc();
        this.auditLog = new AuditLog(jdbc);
        this.reconciliations = new ReconciliationLog(jdbc);
        this.operations = new OperationDecisionStore(jdbc);
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
        expectOne(operations.redrive(operationId, fromAttempt, commandId, schemaVersion, at),
                "operation " + operationId + " changed while it was being redriven");
    }

    void moveToSucceeded(String operationId, JsonNode result, Instant at) {
        expectOne(operations.resolve(operationId, result == null ? null : TriageJson.compact(result), at),
                "operation " + operationId + " is no longer dead-lettered");
    }

    void moveToDiscarded(String operationId, Instant at) {
        expectOne(operations.discard(operationId, at), "operation " + operationId + " is no longer dead-lettered");
    }

    void decideEntry(long entryId, int version, DecisionState decision, String operator, String reason, Instant at) {
        DecisionState.OPEN.checkTransition(decision);
        expectOne(jdbc.update(DECIDE_ENTRY, decision, operator, at, reason, entryId, DecisionState.OPEN, version),
                "DLQ entry " + entryId + " was decided or changed meanwhile");
    }

    long insertReconciliation(String operationId, ReconciliationOutcome outcome, ReconciliationSource source,
                              String evidence, JsonNode result, String operator, Instant at) {
        return reconciliations.record(operationId, new ReconciliationFinding(outcome, source, evidence,
                result == null ? null : TriageJson.compact(result), operator), at);
    }

    /** Records the reconciled side effect on the operation and its open entry (whose version moves on). */
    void settleSideEffect(String operationId, SideEffectState state, Instant at) {
        expectOne(operations.settleSideEffect(operationId, state, at),
                "operation " + operationId + " is no longer dead-lettered");
        jdbc.update(SETTLE_ENTRY_SIDE_EFFECT, state, operationId);
    }

    void audit(Instant at, String actor, AuditAction action, String operationId, Long entryId, UUID commandId,
               String reason, Map<String, Object> details) {
        auditLog.append(new AuditLine(at, actor, action, new AuditSubject(operationId, entryId, commandId), reason,
                details));
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
