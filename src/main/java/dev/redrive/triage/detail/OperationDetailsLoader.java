package dev.redrive.triage.detail;

import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
import dev.redrive.triage.json.TriageJson;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * Loads an operation with all its evidence and history. Called inside a transaction, it reads through that
 * transaction's connection, so a decision sees the same facts it then changes.
 */
public final class OperationDetailsLoader {
    private static final String OPERATION = "SELECT * FROM operations WHERE operation_id = ?";
    private static final String RUN = "SELECT * FROM runs WHERE run_id = ?";
    private static final String ATTEMPTS = "SELECT * FROM attempts WHERE operation_id = ? ORDER BY attempt, started_at, id";
    // An operation's entries are its own: a message that only names it (a conflicting dispatch, say) is not the
    // operation's to show, decide or lock; it is reached by its entry id.
    private static final String OWN_ENTRIES = "FROM dlq_entries WHERE operation_id = ? AND " + DeadLetterStore.OWN_ENTRY;
    private static final String ENTRIES = "SELECT * " + OWN_ENTRIES + " ORDER BY entered_at DESC, id DESC";
    private static final String ENTRY = "SELECT * FROM dlq_entries WHERE id = ?";
    private static final String OPEN_ENTRIES_NAMING = "SELECT id FROM dlq_entries WHERE operation_id = ? "
            + "AND decision_state = 'OPEN' AND NOT coalesce(" + DeadLetterStore.OWN_ENTRY + ", false) ORDER BY id";
    private static final String RECONCILIATIONS = "SELECT * FROM reconciliations WHERE operation_id = ? ORDER BY recorded_at, id";
    private static final String COMMANDS = "SELECT * FROM redrive_commands WHERE operation_id = ? ORDER BY issued_at, command_id";
    private static final String AUDIT = """
            SELECT * FROM audit_log
            WHERE operation_id = ? OR dlq_entry_id IN (SELECT id %s)
            ORDER BY at, id""".formatted(OWN_ENTRIES);
    private static final String LATEST_DISCARDS = """
            SELECT DISTINCT ON (operation_id) * FROM audit_log WHERE operation_id = ANY (?) AND action = 'DISCARD'
             ORDER BY operation_id, at DESC, id DESC""";
    private static final String NEWEST_ENTRY = """
            SELECT * %s
            ORDER BY (decision_state = 'OPEN') DESC, entered_at DESC, id DESC LIMIT 1""".formatted(OWN_ENTRIES);
    private static final String LATEST_RECONCILIATION = """
            SELECT * FROM reconciliations WHERE operation_id = ? ORDER BY recorded_at DESC, id DESC LIMIT 1""";
    private static final String CURRENT_SCHEMA = "SELECT version FROM tool_schemas WHERE tool = ? AND is_current";
    private static final String APPROVAL = "SELECT * FROM approvals WHERE approval_id = ?";
    private static final String LINEAGE = """
            SELECT (SELECT corrects FROM operations WHERE operation_id = ?),
                   (SELECT operation_id FROM operations WHERE corrects = ?)""";
    private static final String SCHEMA_VERSIONS = "SELECT * FROM tool_schemas WHERE tool = ? ORDER BY registered_at, version";

    // The same facts for many operations at once, one statement each: what a batch checks a chunk of items with. The
    // checks read an entry's identity and decision, never its evidence (history, raw message, payload), which is left
    // out: reading it is most of the cost of a chunk.
    private static final String OPERATIONS = "SELECT * FROM operations WHERE operation_id = ANY (?)";
    private static final String RUNS = "SELECT * FROM runs WHERE run_id = ANY (?)";
    private static final String ENTRY_FACTS = """
            id, dedup_key, operation_id, run_id, node_id, logical_attempt, attempt, tool, tool_schema_version,
            idempotency_key, approval_id, trace_id, correlation_id, runtime_version, stream, entry_id, delivery_count,
            consumer, error_class, error_code, error_message, error_fingerprint, side_effect, entered_at, decision_state,
            decided_by, decided_at, decision_reason, version, superseded_by, evidence_purged_at,
            NULL AS attempt_history, NULL AS raw_message, NULL AS payload""";
    private static final String ENTRIES_BY_ID = "SELECT " + ENTRY_FACTS + " FROM dlq_entries WHERE id = ANY (?::text[]::bigint[])";
    private static final String NEWEST_ENTRIES = """
            SELECT DISTINCT ON (operation_id) %s FROM dlq_entries
             WHERE operation_id = ANY (?) AND %s
             ORDER BY operation_id, (decision_state = 'OPEN') DESC, entered_at DESC, id DESC""".formatted(ENTRY_FACTS,
            DeadLetterStore.OWN_ENTRY);
    private static final String LATEST_RECONCILIATIONS = """
            SELECT DISTINCT ON (operation_id) * FROM reconciliations WHERE operation_id = ANY (?)
             ORDER BY operation_id, recorded_at DESC, id DESC""";
    private static final String CURRENT_SCHEMAS = "SELECT tool, version FROM tool_schemas WHERE tool = ANY (?) AND is_current";
    private static final String APPROVALS = "SELECT * FROM approvals WHERE approval_id = ANY (?)";

    private final Jdbc jdbc;
    private final String namespace;

    public OperationDetailsLoader(Database database) {
        this.jdbc = database.jdbc();
        this.namespace = database.schema();
    }

    /** Everything about one operation, or empty when the store does not know it. */
    public Optional<OperationDetails> load(String operationId) {
        return operation(operationId).map(operation -> new OperationDetails(
                operation,
                run(operation.runId()).orElse(null),
                jdbc.query(ATTEMPTS, OperationDetailsLoader::attempt, operationId),
                jdbc.query(ENTRIES, OperationDetailsLoader::entry, operationId),
                jdbc.query(RECONCILIATIONS, OperationDetailsLoader::reconciliation, operationId),
                jdbc.query(COMMANDS, OperationDetailsLoader::command, operationId),
                jdbc.query(AUDIT, OperationDetailsLoader::audit, operationId, operationId),
                currentSchemaVersion(operation.tool()).orElse(null),
                operation.approvalId() == null ? null : approval(operation.approvalId()).orElse(null),
                lineage(operationId)));
    }

    /** Like {@link #load} but fails with a message naming the operation when it is unknown. */
    public OperationDetails require(String operationId) {
        return load(operationId).orElseThrow(() -> unknownOperation(operationId));
    }

    /** The failure for an operation id this namespace has no record of, naming both. */
    public UnknownOperationException unknownOperation(String operationId) {
        return new UnknownOperationException(operationId, namespace);
    }

    /** The failure for an entry id this namespace has no record of, naming both. */
    public UnknownEntryException unknownEntry(long entryId) {
        return new UnknownEntryException(entryId, namespace);
    }

    public Optional<OperationRecord> operation(String operationId) {
        return jdbc.queryOne(OPERATION, OperationDetailsLoader::operation, operationId);
    }

    /** The corrections linked to the operation, both ways. */
    private Lineage lineage(String operationId) {
        return jdbc.queryOne(LINEAGE, row -> new Lineage(row.getString(1), row.getString(2)), operationId, operationId)
                .orElse(Lineage.NONE);
    }

    public Optional<RunRecord> run(String runId) {
        return jdbc.queryOne(RUN, OperationDetailsLoader::run, runId);
    }

    public Optional<DlqEntryRecord> entry(long id) {
        return jdbc.queryOne(ENTRY, OperationDetailsLoader::entry, id);
    }

    /** The operation's own open entry, or its newest own one when none is open. */
    public Optional<DlqEntryRecord> entryOf(String operationId) {
        return jdbc.queryOne(NEWEST_ENTRY, OperationDetailsLoader::entry, operationId);
    }

    /**
     * The open entries that only name the operation (messages dead-lettered as themselves, such as a conflicting
     * dispatch's): the operation id does not take them, their entry ids do.
     */
    public List<Long> openEntriesNaming(String operationId) {
        return jdbc.query(OPEN_ENTRIES_NAMING, row -> row.getLong(1), operationId);
    }

    public Optional<ReconciliationRecord> latestReconciliation(String operationId) {
        return jdbc.queryOne(LATEST_RECONCILIATION, OperationDetailsLoader::reconciliation, operationId);
    }

    public Optional<String> currentSchemaVersion(String tool) {
        return jdbc.queryOne(CURRENT_SCHEMA, row -> row.getString(1), tool);
    }

    /** Every schema version recorded for a tool, oldest first. */
    public List<ToolSchemaRecord> schemaVersions(String tool) {
        return jdbc.query(SCHEMA_VERSIONS, row -> new ToolSchemaRecord(row.getString("tool"), row.getString("version"),
                row.getBoolean("is_current"), row.getString("registered_by"), Jdbc.instant(row, "registered_at")), tool);
    }

    public Optional<ApprovalRecord> approval(String approvalId) {
        return jdbc.queryOne(APPROVAL, OperationDetailsLoader::approval, approvalId);
    }

    /** The operations the store knows among {@code operationIds}, by id. */
    public Map<String, OperationRecord> operations(Collection<String> operationIds) {
        return byKey(OPERATIONS, OperationDetailsLoader::operation, OperationRecord::operationId, operationIds);
    }

    public Map<String, RunRecord> runs(Collection<String> runIds) {
        return byKey(RUNS, OperationDetailsLoader::run, RunRecord::runId, runIds);
    }

    /** Entries by id, without their evidence (attempt history, raw message and payload are null). */
    public Map<Long, DlqEntryRecord> entries(Collection<Long> ids) {
        return byKey(ENTRIES_BY_ID, OperationDetailsLoader::entry, DlqEntryRecord::id,
                ids.stream().map(String::valueOf).toList());
    }

    /**
     * {@link #entryOf} for many operations, without their evidence: each one's own open entry, or its newest own one;
     * by operation id.
     */
    public Map<String, DlqEntryRecord> entriesOf(Collection<String> operationIds) {
        return byKey(NEWEST_ENTRIES, OperationDetailsLoader::entry, DlqEntryRecord::operationId, operationIds);
    }

    /** {@link #latestReconciliation} for many operations, by operation id. */
    public Map<String, ReconciliationRecord> latestReconciliations(Collection<String> operationIds) {
        Map<String, ReconciliationRecord> latest = new HashMap<>();
        if (!operationIds.isEmpty()) {
            jdbc.query(LATEST_RECONCILIATIONS, row -> latest.put(row.getString("operation_id"), reconciliation(row)),
                    (Object) operationIds.toArray(String[]::new));
        }
        return latest;
    }

    /** The audit line of each operation's latest discard, for the operations that had one. */
    public Map<String, AuditEntry> latestDiscards(Collection<String> operationIds) {
        return byKey(LATEST_DISCARDS, OperationDetailsLoader::audit, AuditEntry::operationId, operationIds);
    }

    /** {@link #currentSchemaVersion} for many tools: tool to its current version, for the tools that have one. */
    public Map<String, String> currentSchemaVersions(Collection<String> tools) {
        Map<String, String> current = new HashMap<>();
        if (!tools.isEmpty()) {
            jdbc.query(CURRENT_SCHEMAS, row -> current.put(row.getString(1), row.getString(2)),
                    (Object) tools.toArray(String[]::new));
        }
        return current;
    }

    public Map<String, ApprovalRecord> approvals(Collection<String> approvalIds) {
        return byKey(APPROVALS, OperationDetailsLoader::approval, ApprovalRecord::approvalId, approvalIds);
    }

    private <K, T> Map<K, T> byKey(String sql, Jdbc.RowMapper<T> mapper, Function<T, K> key, Collection<String> keys) {
        Map<K, T> found = new HashMap<>();
        if (!keys.isEmpty()) {
            for (T row : jdbc.query(sql, mapper, (Object) keys.toArray(String[]::new))) {
                found.put(key.apply(row), row);
            }
        }
        return found;
    }

    static OperationRecord operation(ResultSet row) throws SQLException {
        return new OperationRecord(
                row.getString("operation_id"),
                row.getString("run_id"),
                row.getString("node_id"),
                row.getInt("logical_attempt"),
                OperationStatus.valueOf(row.getString("status")),
                row.getInt("attempt"),
                row.getString("tool"),
                row.getString("tool_schema_version"),
                row.getString("idempotency_key"),
                TriageJson.parse(row.getString("payload")),
                row.getString("approval_id"),
                row.getString("trace_id"),
                row.getString("correlation_id"),
                row.getString("traceparent"),
                row.getString("runtime_version"),
                row.getString("lease_owner"),
                row.getLong("fencing_token"),
                Jdbc.instant(row, "lease_expires_at"),
                TriageJson.parse(row.getString("result")),
                SideEffectState.valueOf(row.getString("side_effect")),
                failureClass(row, "last_error_class"),
                Jdbc.instant(row, "next_eligible_at"),
                uuid(row, "redrive_command_id"),
                Jdbc.instant(row, "dispatched_at"),
                Jdbc.instant(row, "created_at"),
                Jdbc.instant(row, "updated_at"));
    }

    static RunRecord run(ResultSet row) throws SQLException {
        return new RunRecord(row.getString("run_id"), RunStatus.valueOf(row.getString("status")),
                row.getString("status_reason"), Jdbc.instant(row, "created_at"), Jdbc.instant(row, "updated_at"));
    }

    static AttemptRecord attempt(ResultSet row) throws SQLException {
        return new AttemptRecord(
                row.getLong("id"),
                row.getInt("attempt"),
                row.getString("delivery_id"),
                Jdbc.nullableInt(row, "delivery_count"),
                row.getString("consumer"),
                Jdbc.nullableLong(row, "fencing_token"),
                uuid(row, "redrive_command_id"),
                Jdbc.instant(row, "started_at"),
                Jdbc.instant(row, "finished_at"),
                row.getString("outcome"),
                failureClass(row, "error_class"),
                row.getString("error_code"),
                row.getString("error_message"),
                Jdbc.nullableLong(row, "retry_after_ms"),
                Jdbc.instant(row, "next_eligible_at"),
                sideEffect(row, "side_effect"),
                row.getString("trace_id"),
                row.getString("span_id"));
    }

    static DlqEntryRecord entry(ResultSet row) throws SQLException {
        return new DlqEntryRecord(
                row.getLong("id"),
                row.getString("dedup_key"),
                row.getString("operation_id"),
                row.getString("run_id"),
                row.getString("node_id"),
                Jdbc.nullableInt(row, "logical_attempt"),
                Jdbc.nullableInt(row, "attempt"),
                row.getString("tool"),
                row.getString("tool_schema_version"),
                row.getString("idempotency_key"),
                row.getString("approval_id"),
                row.getString("trace_id"),
                row.getString("correlation_id"),
                row.getString("runtime_version"),
                row.getString("stream"),
                row.getString("entry_id"),
                Jdbc.nullableInt(row, "delivery_count"),
                row.getString("consumer"),
                FailureClass.valueOf(row.getString("error_class")),
                row.getString("error_code"),
                row.getString("error_message"),
                row.getString("error_fingerprint"),
                SideEffectState.valueOf(row.getString("side_effect")),
                TriageJson.parse(row.getString("attempt_history")),
                TriageJson.parse(row.getString("raw_message")),
                TriageJson.parse(row.getString("payload")),
                Jdbc.instant(row, "entered_at"),
                DecisionState.valueOf(row.getString("decision_state")),
                row.getString("decided_by"),
                Jdbc.instant(row, "decided_at"),
                row.getString("decision_reason"),
                row.getInt("version"),
                row.getString("superseded_by"),
                Jdbc.instant(row, "evidence_purged_at"));
    }

    static ReconciliationRecord reconciliation(ResultSet row) throws SQLException {
        return new ReconciliationRecord(
                row.getLong("id"),
                ReconciliationOutcome.valueOf(row.getString("outcome")),
                ReconciliationSource.valueOf(row.getString("source")),
                row.getString("evidence"),
                TriageJson.parse(row.getString("result")),
                row.getString("recorded_by"),
                Jdbc.instant(row, "recorded_at"));
    }

    static RedriveCommandRecord command(ResultSet row) throws SQLException {
        return new RedriveCommandRecord(
                uuid(row, "command_id"),
                row.getString("operation_id"),
                row.getLong("dlq_entry_id"),
                row.getString("operator"),
                row.getString("reason"),
                Jdbc.instant(row, "issued_at"),
                row.getInt("from_attempt"),
                row.getInt("to_attempt"),
                row.getString("target_schema_version"),
                TriageJson.parse(row.getString("preconditions")),
                RedriveCommandStatus.valueOf(row.getString("status")),
                Jdbc.instant(row, "executed_at"),
                Jdbc.instant(row, "completed_at"),
                row.getString("operator_traceparent"));
    }

    static AuditEntry audit(ResultSet row) throws SQLException {
        return new AuditEntry(
                row.getLong("id"),
                Jdbc.instant(row, "at"),
                row.getString("actor"),
                row.getString("db_login"),
                row.getString("action"),
                row.getString("operation_id"),
                Jdbc.nullableLong(row, "dlq_entry_id"),
                uuid(row, "command_id"),
                row.getString("reason"),
                TriageJson.parse(row.getString("details")));
    }

    static ApprovalRecord approval(ResultSet row) throws SQLException {
        return new ApprovalRecord(
                row.getString("approval_id"),
                row.getString("scope"),
                row.getString("granted_by"),
                Jdbc.instant(row, "granted_at"),
                Jdbc.instant(row, "expires_at"),
                Jdbc.instant(row, "revoked_at"),
                row.getString("revoked_by"),
                row.getString("revoke_reason"));
    }

    private static FailureClass failureClass(ResultSet row, String column) throws SQLException {
        String value = row.getString(column);
        return value == null ? null : FailureClass.valueOf(value);
    }

    private static SideEffectState sideEffect(ResultSet row, String column) throws SQLException {
        String value = row.getString(column);
        return value == null ? null : SideEffectState.valueOf(value);
    }

    private static UUID uuid(ResultSet row, String column) throws SQLException {
        return row.getObject(column, UUID.class);
    }
}
