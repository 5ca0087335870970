package dev.redrive.health;

import dev.redrive.broker.Redis;
import dev.redrive.broker.StreamKeys;
import dev.redrive.store.Database;
import io.lettuce.core.Consumer;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Instant;
import java.util.Map;

/** Dead-letter entries written straight with SQL, set-based, for tests that need many of them. */
public final class DlqFixture {
    private static final String ENTRIES = """
            INSERT INTO dlq_entries (dedup_key, operation_id, run_id, node_id, logical_attempt, attempt, tool,
                                     tool_schema_version, idempotency_key, trace_id, correlation_id, runtime_version,
                                     stream, entry_id, delivery_count, consumer, error_class, error_code, error_message,
                                     error_fingerprint, side_effect, raw_message, payload, entered_at, decision_state)
            SELECT 'fx:' || ? || ':' || g,
                   ? || ':node-' || g || ':0', ?, 'node-' || g, 0, 3, ?, '1', 'op-key-' || g,
                   'trace-' || ? || '-' || g, 'corr-' || g, 'test',
                   'ns:dispatch', g || '-0', 3, 'worker-1', ?, 'E' || (g % 7),
                   'charge failed for order ' || g, ?, ?, '{}'::jsonb, '{"amount": 10}'::jsonb,
                   ?::timestamptz - (g || ' milliseconds')::interval, ?
              FROM generate_series(1, ?) AS g
            """;

    private static final String TEXT_INDEX = "dlq_error_text_idx";

    private DlqFixture() {
    }

    /**
     * Inserts {@code count} entries of one run, class and fingerprint, entered one millisecond apart before
     * {@code newest}. Their operations are not recorded: enough for lists and health, not for the detail pane.
     */
    public static void insert(Database database, String runId, int count, String errorClass, String tool,
                              String fingerprint, String sideEffect, String decisionState, Instant newest) {
        database.jdbc().update(ENTRIES, runId + ":" + fingerprint, runId, runId, tool, runId, errorClass, fingerprint,
                sideEffect, newest, decisionState, count);
    }

    /**
     * The stream side of queue health: the workers' group on the dispatch stream (created with it), {@code entries}
     * dispatches added, the first {@code delivered} of them read by worker-a and not acked.
     */
    public static void dispatchBacklog(Redis redis, int entries, int delivered) {
        RedisClusterCommands<String, String> commands = redis.sync();
        String dispatch = redis.keys().dispatch();
        commands.xgroupCreate(XReadArgs.StreamOffset.from(dispatch, "0"), StreamKeys.WORKER_GROUP,
                XGroupCreateArgs.Builder.mkstream());
        for (int i = 0; i < entries; i++) {
            commands.xadd(dispatch, Map.of("n", String.valueOf(i)));
        }
        commands.xreadgroup(Consumer.from(StreamKeys.WORKER_GROUP, "worker-a"), XReadArgs.Builder.count(delivered),
                XReadArgs.StreamOffset.lastConsumed(dispatch));
    }

    /**
     * Inserts {@code count} entries spread over seven classes and fingerprints in one statement, rebuilding the
     * free-text index once afterwards instead of row by row, then refreshes the planner's statistics.
     */
    public static void insertMany(Database database, String runId, int count, Instant newest) {
        database.jdbc().inTransaction(() -> {
            database.jdbc().update("DROP INDEX " + TEXT_INDEX);
            database.jdbc().update(MANY, runId, runId, runId, runId, newest, count);
            database.jdbc().update("CREATE INDEX " + TEXT_INDEX
                    + " ON dlq_entries USING gin (to_tsvector('simple', error_message))");
        });
        database.jdbc().update("VACUUM (ANALYZE) dlq_entries");
    }

    private static final String MANY = """
            INSERT INTO dlq_entries (dedup_key, operation_id, run_id, node_id, logical_attempt, attempt, tool,
                                     tool_schema_version, idempotency_key, error_class, error_message,
                                     error_fingerprint, side_effect, raw_message, entered_at)
            SELECT 'many:' || ? || ':' || g, ? || ':node-' || g || ':0', ?, 'node-' || g, 0, 2, 'demo.charge', '1',
                   'op-key-' || g,
                   (ARRAY['TRANSIENT', 'RATE_LIMITED', 'DEPENDENCY_DOWN', 'INVALID_INPUT', 'PERMISSION',
                          'UNKNOWN_SIDE_EFFECT', 'TRANSIENT'])[1 + g % 7],
                   'failure ' || g % 7 || ' for order ' || g, ? || '-fp-' || g % 7,
                   CASE WHEN g % 7 = 5 THEN 'POSSIBLE' ELSE 'NONE' END, '{}'::jsonb,
                   ?::timestamptz - (g || ' milliseconds')::interval
              FROM generate_series(1, ?) AS g
            """;
}
