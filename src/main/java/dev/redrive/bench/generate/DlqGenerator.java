package dev.redrive.bench.generate;

import dev.redrive.RuntimeVersion;
import dev.redrive.broker.StreamKeys;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditAction;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * Fills a namespace with realistic dead-lettered operations for tests, benchmarks and demos: runs, operations, their
 * attempts, DLQ entries with full evidence, a few already decided (with their audit lines), spread over the last
 * 30 days. Everything is written set-based in one transaction; at a million entries most of the time goes to
 * rebuilding the DLQ's thirteen indexes and to the vacuum that lets its index-only scans work.
 */
public final class DlqGenerator {
    /** Entries per run: a realistic incident has many failing nodes per run. */
    private static final int ENTRIES_PER_RUN = 200;
    /** From this many entries on, indexes and foreign keys are rebuilt once instead of maintained row by row. */
    static final int BULK_THRESHOLD = 50_000;
    private static final long SPREAD_SECONDS = Duration.ofDays(30).toSeconds();

    // history is the template's attempt history as JSON text with a %s for each attempt's finished_at: formatting
    // that text and parsing it costs a third of building the same JSON object by object for every entry.
    private static final String TEMPLATES = """
            CREATE TEMP TABLE gen_templates ON COMMIT DROP AS
            SELECT t.*,
                   (SELECT '[' || string_agg(format('{"attempt": %s, "outcome": %s, "error_class": %s, '
                                                    || '"error_code": %s, "finished_at": %%s}',
                                                    a, to_json(CASE WHEN a = t.attempts THEN 'DEAD_LETTERED'
                                                                    ELSE 'RETRY_SCHEDULED' END),
                                                    to_json(t.error_class), to_json(t.error_code)),
                                             ', ' ORDER BY a) || ']'
                    FROM generate_series(1, t.attempts) a) AS history
            FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[]::int[], ?::text[])
                WITH ORDINALITY AS t(tool, error_class, error_code, message, side_effect, attempts, fingerprint, k)""";

    private static final String RUNS = """
            INSERT INTO runs (run_id, status, status_reason, created_at, updated_at)
            SELECT ? || '-run-' || lpad(r::text, ?, '0'),
                   CASE WHEN r % 20 = 0 THEN 'CANCELLED' ELSE 'RUNNING' END,
                   CASE WHEN r % 20 = 0 THEN 'cancelled by the workflow owner' END,
                   ?::timestamptz - interval '31 days', ?::timestamptz - interval '31 days'
            FROM generate_series(1, ?) r""";

    // Everything the three tables share is computed once here. Runs are filled one after the other and node ids are
    // zero-padded, so the items are written in operation-id order and the unique indexes on operation ids and dedup
    // keys are appended to instead of updated at random pages. k picks a template, skewed towards the first ones;
    // decided < 0.08 marks the few entries already decided.
    private static final String ITEMS = """
            CREATE TEMP TABLE gen_items ON COMMIT DROP AS
            SELECT s.*, t.tool, t.error_class, t.error_code, t.fingerprint, t.side_effect, t.attempts, t.history,
                   replace(t.message, '{n}', s.n::text) AS error_message,
                   'op-' || substr(encode(sha256(convert_to(s.operation_id, 'UTF8')), 'hex'), 1, 32) AS idempotency_key,
                   jsonb_build_object('amount', s.n % 500 + 1, 'currency', 'EUR', 'customer_id', 'cus_' || s.n,
                                      'card_number', '4111 1111 1111 ' || lpad((s.n % 10000)::text, 4, '0')) AS payload,
                   md5(s.run_id || s.node_id) AS trace_id,
                   s.entered_at - t.attempts * interval '30 seconds' AS dispatched_at,
                   CASE WHEN s.decided < 0.04 THEN 'RESOLVED' WHEN s.decided < 0.08 THEN 'DISCARDED' ELSE 'OPEN' END
                       AS decision_state
            FROM (SELECT i, run_id, node_id, run_id || ':' || node_id || ':0' AS operation_id,
                         ?::timestamptz - random() * ? * interval '1 second' AS entered_at,
                         (random() * 99999)::int AS n,
                         1 + floor(power(random(), 1.8) * ?)::int AS k,
                         random() AS decided
                  FROM (SELECT i, ? || '-run-' || lpad((1 + (i - 1) / ?)::text, ?, '0') AS run_id,
                               'node-' || lpad((1 + (i - 1) % ?)::text, ?, '0') AS node_id
                        FROM generate_series(1, ?) i) ids) s
            JOIN gen_templates t ON t.k = s.k""";

    private static final String OPERATIONS = """
            INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                    tool_schema_version, idempotency_key, payload, trace_id, correlation_id,
                                    runtime_version, side_effect, last_error_class, result, dispatched_at,
                                    created_at, updated_at)
            SELECT operation_id, run_id, node_id, 0,
                   CASE decision_state WHEN 'RESOLVED' THEN 'SUCCEEDED' WHEN 'DISCARDED' THEN 'DISCARDED'
                                       ELSE 'DEAD_LETTERED' END,
                   attempts, tool, '1', idempotency_key, payload, trace_id, 'corr-' || run_id, ?, side_effect,
                   error_class,
                   CASE WHEN decision_state = 'RESOLVED'
                        THEN jsonb_build_object('reconciled', true, 'reference', 'ref-' || n) END,
                   dispatched_at, dispatched_at, entered_at
            FROM gen_items""";

    private static final String ATTEMPTS = """
            INSERT INTO attempts (operation_id, attempt, delivery_id, delivery_count, consumer, fencing_token,
                                  started_at, finished_at, outcome, error_class, error_code, error_message,
                                  retry_after_ms, next_eligible_at, side_effect)
            SELECT g.operation_id, a,
                   (extract(epoch FROM g.entered_at)::bigint * 1000 - (g.attempts - a) * 30000) || '-0',
                   1, 'worker-' || (g.i % 4 + 1), a,
                   g.entered_at - (g.attempts - a) * interval '30 seconds' - interval '2 seconds',
                   g.entered_at - (g.attempts - a) * interval '30 seconds',
                   CASE WHEN a = g.attempts THEN 'DEAD_LETTERED' ELSE 'RETRY_SCHEDULED' END,
                   g.error_class, g.error_code, g.error_message,
                   CASE WHEN g.error_class = 'RATE_LIMITED' THEN 1000 * a END,
                   CASE WHEN a < g.attempts THEN g.entered_at - (g.attempts - a - 1) * interval '30 seconds' END,
                   CASE WHEN a = g.attempts THEN g.side_effect ELSE 'NONE' END
            FROM gen_items g CROSS JOIN LATERAL generate_series(1, g.attempts) a""";

    // The audit lines of the decided entries are written from the rows the same statement inserts, which saves a
    // scan of the whole DLQ to find them again.
    private static final String ENTRIES_AND_AUDIT = """
            WITH entries AS (
                INSERT INTO dlq_entries (dedup_key, operation_id, run_id, node_id, logical_attempt, attempt, tool,
                                         tool_schema_version, idempotency_key, trace_id, correlation_id,
                                         runtime_version, stream, entry_id, delivery_count, consumer, error_class,
                                         error_code, error_message, error_fingerprint, side_effect, attempt_history,
                                         raw_message, payload, entered_at, decision_state, decided_by, decided_at,
                                         decision_reason, version)
                SELECT 'op:' || g.operation_id || ':' || g.attempts, g.operation_id, g.run_id, g.node_id, 0, g.attempts,
                       g.tool, '1', g.idempotency_key, g.trace_id, 'corr-' || g.run_id, ?,
                       ?, extract(epoch FROM g.entered_at)::bigint * 1000 || '-0', 1,
                       'worker-' || (g.i % 4 + 1), g.error_class, g.error_code, g.error_message, g.fingerprint,
                       g.side_effect,
                       -- The template has at most four attempts; finished_at of attempt a is 30 s per later attempt
                       -- before entering the DLQ, and format() ignores the arguments a shorter history does not use.
                       format(g.history, to_json(g.entered_at - (g.attempts - 1) * interval '30 seconds'),
                              to_json(g.entered_at - (g.attempts - 2) * interval '30 seconds'),
                              to_json(g.entered_at - (g.attempts - 3) * interval '30 seconds'),
                              to_json(g.entered_at - (g.attempts - 4) * interval '30 seconds'))::jsonb,
                       jsonb_build_object('v', '1', 'run_id', g.run_id, 'node_id', g.node_id, 'logical_attempt', '0',
                                          'operation_id', g.operation_id, 'attempt', g.attempts::text, 'tool', g.tool,
                                          'tool_schema_version', '1', 'idempotency_key', g.idempotency_key,
                                          'payload', g.payload::text, 'trace_id', g.trace_id,
                                          'correlation_id', 'corr-' || g.run_id, 'runtime_version', ?::text,
                                          'dispatched_at', g.dispatched_at),
                       g.payload, g.entered_at, g.decision_state,
                       CASE WHEN g.decision_state <> 'OPEN' THEN (ARRAY['alice', 'bob', 'chen'])[1 + g.i % 3] END,
                       CASE WHEN g.decision_state <> 'OPEN' THEN g.entered_at + interval '1 hour' END,
                       CASE g.decision_state WHEN 'RESOLVED' THEN 'reconciled with the tool: the effect was applied'
                                             WHEN 'DISCARDED' THEN 'superseded by a manual correction' END,
                       CASE WHEN g.decision_state <> 'OPEN' THEN 1 ELSE 0 END
                FROM gen_items g
                RETURNING id, operation_id, decision_state, decided_by, decided_at, decision_reason)
            INSERT INTO audit_log (at, actor, action, operation_id, dlq_entry_id, reason, details)
            SELECT decided_at, decided_by, CASE decision_state WHEN 'RESOLVED' THEN ?::text ELSE ?::text END,
                   operation_id, id, decision_reason, jsonb_build_object('generated', true)
            FROM entries
            WHERE decision_state <> 'OPEN'""";

    private static final String SCHEMAS = """
            INSERT INTO tool_schemas (tool, version, is_current, registered_by)
            SELECT DISTINCT t.tool, '1', true, 'generator' FROM gen_templates t
            WHERE NOT EXISTS (SELECT 1 FROM tool_schemas s WHERE s.tool = t.tool AND s.is_current)
            ON CONFLICT (tool, version) DO NOTHING""";

    private final Database database;
    private final Clock clock;

    public DlqGenerator(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /** Writes {@code entries} dead-lettered operations under a fresh run-id prefix. */
    public GeneratedDlq generate(int entries) {
        return generate(entries, "gen" + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36, 36 * 36 * 36 * 36), 36));
    }

    /**
     * Writes {@code entries} dead-lettered operations whose run ids start with {@code tag}.
     *
     * @throws IllegalArgumentException when the count is not positive or the tag is not a valid id part
     */
    public GeneratedDlq generate(int entries, String tag) {
        if (entries < 1) {
            throw new IllegalArgumentException("the number of entries must be 1 or more, got " + entries);
        }
        if (tag == null || !tag.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("the generator tag must match [A-Za-z0-9._-]{1,64}, got '" + tag + "'");
        }
        long started = System.nanoTime();
        int runs = Math.max(1, (entries + ENTRIES_PER_RUN - 1) / ENTRIES_PER_RUN);
        int runDigits = Math.max(5, Integer.toString(runs).length());
        int nodeDigits = Integer.toString(ENTRIES_PER_RUN).length();
        Jdbc jdbc = database.jdbc();
        var now = clock.instant();
        List<FailureTemplate> catalogue = FailureTemplate.CATALOGUE;
        String runtimeVersion = RuntimeVersion.wireValue();
        long attempts = jdbc.inTransaction(() -> {
            jdbc.update(TEMPLATES,
                    column(catalogue, FailureTemplate::tool),
                    column(catalogue, t -> t.errorClass().name()),
                    column(catalogue, FailureTemplate::errorCode),
                    column(catalogue, FailureTemplate::message),
                    column(catalogue, t -> t.sideEffect().name()),
                    column(catalogue, t -> Integer.toString(t.attempts())),
                    column(catalogue, FailureTemplate::fingerprint));
            jdbc.update(RUNS, tag, runDigits, now, now, runs);
            jdbc.update(ITEMS, now, SPREAD_SECONDS, catalogue.size(), tag, ENTRIES_PER_RUN, runDigits, ENTRIES_PER_RUN,
                    nodeDigits, entries);
            BulkLoad bulk = new BulkLoad(jdbc);
            if (entries >= BULK_THRESHOLD) {
                for (String table : List.of("operations", "attempts", "dlq_entries")) {
                    bulk.defer(table);
                }
            }
            jdbc.update(OPERATIONS, runtimeVersion);
            long written = jdbc.update(ATTEMPTS);
            jdbc.update(ENTRIES_AND_AUDIT, runtimeVersion, new StreamKeys(database.schema()).dispatch(), runtimeVersion,
                    AuditAction.RESOLVE.stored(), AuditAction.DISCARD.stored());
            bulk.restore();
            jdbc.update(SCHEMAS);
            return written;
        });
        refreshStatistics(jdbc);
        return new GeneratedDlq(tag, entries, runs, attempts, Duration.ofNanos(System.nanoTime() - started));
    }

    /** Fresh statistics, and a visibility map for the DLQ so its index-only scans work. */
    private static void refreshStatistics(Jdbc jdbc) {
        jdbc.update("VACUUM (ANALYZE) dlq_entries");
        jdbc.update("ANALYZE operations, attempts, runs, audit_log");
    }

    private static String[] column(List<FailureTemplate> templates, Function<FailureTemplate, String> field) {
        return templates.stream().map(field).toArray(String[]::new);
    }
}
