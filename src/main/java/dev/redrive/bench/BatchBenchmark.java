package dev.redrive.bench;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.store.Database;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.decision.durable.BatchSelection;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.durable.DurableBatchListener;
import dev.redrive.triage.decision.durable.DurableBatches;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.worker.client.WorkerClient;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Measures a batch redrive of a whole fingerprint group against the commit rate of one client of the same PostgreSQL,
 * measured right before it in the same round: a redrive records a command, an operation move, an entry decision and an
 * audit line per item, so deciding items one transaction each could not go faster than that rate. Each round seeds two
 * groups afresh (every item passes every check), measures one client's single-row commits, runs a dry run of the first
 * (listing the group and checking every precondition of every item), then redrives each (listing, checking again inside
 * the transactions, recording, publishing): the first as the console's wizard does, the second as
 * {@code redrive --group FP} does, a durable batch whose progress commits with every chunk; the two take turns at going
 * first. The first round is the cold one, as a CLI process meets it: its durable batch is the first work of the JVM.
 * Rounds after it are warm and give the medians. It runs in a throw-away namespace, dropped afterwards.
 */
public final class BatchBenchmark {
    static final String GROUP = "bench-batch";
    /** A second group of as many entries, for the durable batch that {@code redrive --group} starts. */
    static final String DURABLE_GROUP = "bench-batch-durable";
    private static final Duration CEILING_RUN = Duration.ofSeconds(4);

    // One run, one tool, items that pass every check: realistic rows (payload, history, raw message) without the
    // generator's mix of blocked items, so the redrive issues every item it lists.
    private static final String SEED_OPERATIONS = """
            INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                    tool_schema_version, idempotency_key, payload, trace_id, correlation_id,
                                    runtime_version, side_effect, last_error_class, dispatched_at)
            SELECT ? || ':node-' || lpad(i::text, 7, '0') || ':0', ?, 'node-' || lpad(i::text, 7, '0'), 0,
                   'DEAD_LETTERED', 3, ?, '1', ? || ':key-' || i,
                   jsonb_build_object('amount', i % 500 + 1, 'currency', 'EUR', 'customer_id', 'cus_' || i),
                   md5(i::text), 'corr-bench', 'redrive-java/bench', 'NONE', 'TRANSIENT', now() - interval '10 minutes'
              FROM generate_series(1, ?) i""";
    private static final String SEED_ENTRIES = """
            INSERT INTO dlq_entries (dedup_key, operation_id, run_id, node_id, logical_attempt, attempt, tool,
                                     tool_schema_version, idempotency_key, trace_id, correlation_id, runtime_version,
                                     stream, entry_id, delivery_count, consumer, error_class, error_code, error_message,
                                     error_fingerprint, side_effect, attempt_history, raw_message, payload, entered_at)
            SELECT 'op:' || o.operation_id || ':3', o.operation_id, o.run_id, o.node_id, 0, 3, o.tool, '1',
                   o.idempotency_key, o.trace_id, o.correlation_id, o.runtime_version, ?, '1700000000000-0', 1,
                   'worker-1', 'TRANSIENT', '500', 'ledger answered 500: internal error', ?, 'NONE',
                   '[{"attempt": 1, "outcome": "RETRY_SCHEDULED"}, {"attempt": 2, "outcome": "RETRY_SCHEDULED"},
                     {"attempt": 3, "outcome": "DEAD_LETTERED"}]'::jsonb,
                   jsonb_build_object('operation_id', o.operation_id, 'payload', o.payload::text), o.payload,
                   now() - interval '5 minutes' + (row_number() OVER (ORDER BY o.operation_id)) * interval '1 ms'
              FROM operations o WHERE o.run_id = ?""";

    private final RedriveConfig config;
    private final int entries;
    private final int rounds;
    private final PrintWriter out;

    public BatchBenchmark(RedriveConfig config, int entries, int rounds, PrintWriter out) {
        if (entries < 1 || entries > BatchDecisions.MAX_ITEMS) {
            throw new IllegalArgumentException("--entries must be 1 to " + BatchDecisions.MAX_ITEMS + ", got " + entries);
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be 1 or more, got " + rounds);
        }
        this.config = config;
        this.entries = entries;
        this.rounds = rounds;
        this.out = out;
    }

    /**
     * Items per second of one round: the one-client commit rate, the dry run, the redrive as the console's wizard runs
     * it, the redrive as {@code redrive --group} runs it (a durable batch, its progress committed with every chunk).
     */
    public record Round(double oneClientCommits, double dryRunItems, double redriveItems, double durableItems) {
    }

    public List<Round> run() throws Exception {
        try (Database database = Database.open(config, 4); Redis redis = Redis.connect(config)) {
            try {
                Round[] measured = new Round[rounds];
                for (int round = 0; round < rounds; round++) {
                    measured[round] = round(database, redis, round + 1);
                }
                Round cold = measured[0];
                out.printf(Locale.ROOT, "cold (round 1, the first work of a fresh JVM, as the CLI runs it): redrive "
                                + "--group %.0f items/s = %.2fx one client's commits (%.0f/s)%n", cold.durableItems(),
                        cold.durableItems() / cold.oneClientCommits(), cold.oneClientCommits());
                if (rounds == 1) {
                    out.printf(Locale.ROOT, "warm: run --rounds 3 or more for the figures of a warmed-up JVM%n");
                    return List.of(measured);
                }
                Round[] warm = Arrays.copyOfRange(measured, 1, rounds);
                double ceiling = median(warm, Round::oneClientCommits);
                double dry = median(warm, Round::dryRunItems);
                double redrive = median(warm, Round::redriveItems);
                double durable = median(warm, Round::durableItems);
                out.printf(Locale.ROOT, "warm (median of rounds 2 to %d): redrive --group %.0f items/s = %.2fx one "
                                + "client's commits (%.0f/s; goals >= 5,000 items/s and >= 1.0x); the console's batch "
                                + "%.0f items/s = %.2fx; dry run %.0f items/s (goal >= 10,000)%n",
                        rounds, durable, durable / ceiling, ceiling, redrive, redrive / ceiling, dry);
                return List.of(measured);
            } finally {
                database.dropSchema();
                redis.deleteNamespaceKeys();
            }
        }
    }

    private Round round(Database database, Redis redis, int round) throws Exception {
        database.dropSchema();
        redis.deleteNamespaceKeys();
        database.migrate();
        seed(database, redis);
        double oneClient = CommitCeiling.commitsPerSecond(database, 1, CEILING_RUN);
        Clock clock = Clock.systemUTC();
        Decisions decisions = new Decisions(database, new WorkerClient(database, redis, clock), clock);
        JdbcDlqQueries queries = new JdbcDlqQueries(database);
        BatchDecisions batch = new BatchDecisions(decisions, queries, clock, Sleeper.SYSTEM);

        long streamBefore = redis.sync().xlen(redis.keys().dispatch());
        DurableBatches batches = new DurableBatches(decisions, queries, clock, Sleeper.SYSTEM);
        // The first round's first work is the durable batch, so that it runs cold, as redrive --group does in a new
        // process; later rounds measure the dry run first, then the two redrives take turns at going first (the second
        // finds the first one's dead rows in the table).
        double coldDurableSeconds = round == 1 ? durableBatch(batches) : 0;
        long started = System.nanoTime();
        BatchReport dry = batch.redrive(batch.group(GROUP).targets(), BatchOptions.dryRun("bench", "dry run"),
                BatchListener.NONE);
        double drySeconds = seconds(started);
        require(dry, DecisionOutcome.WOULD_PASS);

        double redriveSeconds;
        double durableSeconds;
        if (round == 1) {
            durableSeconds = coldDurableSeconds;
            redriveSeconds = consoleBatch(batch);
        } else if (round % 2 == 1) {
            redriveSeconds = consoleBatch(batch);
            durableSeconds = durableBatch(batches);
        } else {
            durableSeconds = durableBatch(batches);
            redriveSeconds = consoleBatch(batch);
        }
        long published = redis.sync().xlen(redis.keys().dispatch()) - streamBefore;
        long commands = database.jdbc().queryLong("SELECT count(*) FROM redrive_commands");
        long audited = database.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE action = 'REDRIVE'");

        Round result = new Round(oneClient, entries / drySeconds, entries / redriveSeconds, entries / durableSeconds);
        out.printf(Locale.ROOT, "round %d: one client commits %.0f single-row transactions/s; dry run %d items in %.2f s "
                        + "= %.0f items/s; the console's batch (--rate 100000) %d items in %.2f s = %.0f items/s = "
                        + "%.2fx one client; redrive --group %d items in %.2f s = %.0f items/s = %.2fx one client "
                        + "(%d commands, %d audit lines, %d dispatches published), load %s%n",
                round, oneClient, entries, drySeconds, result.dryRunItems(), entries, redriveSeconds,
                result.redriveItems(), result.redriveItems() / oneClient, entries, durableSeconds,
                result.durableItems(), result.durableItems() / oneClient, commands, audited, published,
                LoadAverage.now());
        return result;
    }

    /** Seconds the console's batch takes for the group, as the wizard runs it: listed, then decided in chunks. */
    private double consoleBatch(BatchDecisions batch) {
        long started = System.nanoTime();
        List<DecisionTarget> targets = batch.group(GROUP).targets();
        BatchReport redriven = batch.redrive(targets, new BatchOptions("bench", "benchmark", null, 100_000, false),
                BatchListener.NONE);
        double seconds = seconds(started);
        require(redriven, DecisionOutcome.DONE);
        return seconds;
    }

    /** Seconds a durable batch takes for the other group, as {@code redrive --group FP} records and runs it. */
    private double durableBatch(DurableBatches batches) {
        long started = System.nanoTime();
        DurableBatch batch = batches.start(DecisionKind.REDRIVE,
                BatchSelection.matching(DlqFilter.builder().fingerprint(DURABLE_GROUP).build()),
                new BatchOptions("bench", "benchmark", null, 100_000, false));
        DurableBatch ran = batches.run(batch.id(), DurableBatchListener.NONE).batch();
        double seconds = seconds(started);
        if (ran.state() != BatchState.DONE || ran.succeeded() != entries) {
            throw new IllegalStateException("expected a DONE batch of " + entries + " items redriven, got " + ran.state()
                    + " with " + ran.succeeded());
        }
        return seconds;
    }

    private void seed(Database database, Redis redis) {
        database.jdbc().inTransaction(() -> {
            database.jdbc().update("INSERT INTO runs (run_id) VALUES ('bench-run'), ('bench-run-durable')");
            database.jdbc().update("INSERT INTO tool_schemas (tool, version, is_current, registered_by) "
                    + "VALUES (?, '1', true, 'bench')", BenchTool.NO_OP.name());
            seedGroup(database, redis, "bench-run", GROUP);
            seedGroup(database, redis, "bench-run-durable", DURABLE_GROUP);
        });
        database.jdbc().update("VACUUM (ANALYZE) dlq_entries");
        database.jdbc().update("ANALYZE operations, runs");
    }

    private void seedGroup(Database database, Redis redis, String run, String fingerprint) {
        database.jdbc().update(SEED_OPERATIONS, run, run, BenchTool.NO_OP.name(), run, entries);
        database.jdbc().update(SEED_ENTRIES, redis.keys().dispatch(), fingerprint, run);
    }

    /** Every item must end as expected, or the rate measured something else than the batch path. */
    private void require(BatchReport report, DecisionOutcome expected) {
        if (report.items().size() != entries || report.count(expected) != entries) {
            throw new IllegalStateException("expected " + entries + " items " + expected + ", got " + report.summary());
        }
    }

    private static double seconds(long started) {
        return (System.nanoTime() - started) / 1e9;
    }

    private static double median(Round[] rounds, ToDoubleFunction<Round> field) {
        double[] values = Arrays.stream(rounds).mapToDouble(field).sorted().toArray();
        return values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }
}
