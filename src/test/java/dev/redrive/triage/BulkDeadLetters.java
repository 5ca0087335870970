package dev.redrive.triage;

import dev.redrive.store.Database;

/**
 * Many dead-lettered operations of one run and fingerprint written with two set-based statements, each with its own
 * DLQ entry and every redrive precondition passing: for tests of batches over thousands of entries.
 */
public final class BulkDeadLetters {
    private static final String OPERATIONS = """
            INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                    tool_schema_version, idempotency_key, payload, trace_id, correlation_id,
                                    runtime_version, side_effect, last_error_class, dispatched_at)
            SELECT ? || ':node-' || lpad(i::text, 7, '0') || ':0', ?, 'node-' || lpad(i::text, 7, '0'), 0,
                   'DEAD_LETTERED', 3, 'demo.charge', '1', ? || '-key-' || i, jsonb_build_object('amount', i % 500 + 1),
                   md5(i::text), 'corr-bulk', 'redrive-java/test', 'NONE', 'TRANSIENT', now() - interval '10 minutes'
              FROM generate_series(1, ?) i""";
    private static final String ENTRIES = """
            INSERT INTO dlq_entries (dedup_key, operation_id, run_id, node_id, logical_attempt, attempt, tool,
                                     tool_schema_version, idempotency_key, trace_id, correlation_id, runtime_version,
                                     stream, entry_id, delivery_count, consumer, error_class, error_code, error_message,
                                     error_fingerprint, side_effect, attempt_history, raw_message, payload, entered_at)
            SELECT 'op:' || o.operation_id || ':3', o.operation_id, o.run_id, o.node_id, 0, 3, o.tool, '1',
                   o.idempotency_key, o.trace_id, o.correlation_id, o.runtime_version, 'dispatch', '1700000000000-0', 1,
                   'worker-1', 'TRANSIENT', '500', 'ledger answered 500: internal error', ?, 'NONE', '[]'::jsonb,
                   '{}'::jsonb, o.payload,
                   now() - interval '5 minutes' + (row_number() OVER (ORDER BY o.operation_id)) * interval '1 ms'
              FROM operations o WHERE o.run_id = ?""";

    private BulkDeadLetters() {
    }

    /** {@code count} operations {@code runId:node-NNNNNNN:0} of tool demo.charge (schema 1), grouped as {@code fingerprint}. */
    public static void create(Database database, String runId, String fingerprint, int count) {
        database.jdbc().inTransaction(() -> {
            database.jdbc().update("INSERT INTO runs (run_id) VALUES (?)", runId);
            database.jdbc().update("INSERT INTO tool_schemas (tool, version, is_current, registered_by) "
                    + "VALUES ('demo.charge', '1', true, 'test') ON CONFLICT DO NOTHING");
            database.jdbc().update(OPERATIONS, runId, runId, runId, count);
            database.jdbc().update(ENTRIES, fingerprint, runId);
        });
        database.jdbc().update("ANALYZE operations, dlq_entries, runs");
    }
}
