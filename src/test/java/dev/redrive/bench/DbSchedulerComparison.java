package dev.redrive.bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.store.Database;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Drains the same number of no-op operations with Redrive's worker and with db-scheduler (the anchor: lock-and-fetch
 * polling, the same number of threads) on the same PostgreSQL, alternating round by round, and prints the ratio of
 * their median rates; both are also set against the commit ceiling of eight connections measured at the start of each
 * round. db-scheduler commits about one transaction per execution; Redrive commits many operations per statement, so
 * it should drain faster. Warm-up rounds, not counted, come first: one, and more while the JIT compiler was still busy
 * (see {@link JitWarmUp}), at most {@value #MAX_WARM_UPS}. A benchmark entry point, not a test: db-scheduler is a test-scoped
 * dependency and never ships. Arguments: {@code [operations (default 20000)] [rounds (default 3)]}; connection from the {@code REDRIVE_*}
 * environment, namespace {@code bench_compare} (dropped afterwards).
 */
public final class DbSchedulerComparison {
    private static final int THREADS = 8;
    private static final int MAX_WARM_UPS = 3;
    /** db-scheduler's table for PostgreSQL with the indexes its documentation creates, which its polls read. */
    private static final String TASKS_TABLE = """
            CREATE TABLE scheduled_tasks (
                task_name            text                     NOT NULL,
                task_instance        text                     NOT NULL,
                task_data            bytea,
                execution_time       timestamp with time zone NOT NULL,
                picked               boolean                  NOT NULL,
                picked_by            text,
                last_success         timestamp with time zone,
                last_failure         timestamp with time zone,
                consecutive_failures int,
                last_heartbeat       timestamp with time zone,
                version              bigint                   NOT NULL,
                priority             smallint,
                PRIMARY KEY (task_name, task_instance));
            CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time);
            CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat);
            CREATE INDEX priority_execution_time_idx ON scheduled_tasks (priority DESC, execution_time ASC)""";

    private DbSchedulerComparison() {
    }

    public static void main(String[] args) throws Exception {
        int operations = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        PrintWriter out = new PrintWriter(System.out, true);
        RedriveConfig config = RedriveConfig.fromEnvironment(System.getenv()).withNamespace("bench_compare");
        WorkerBenchmark redrive = new WorkerBenchmark(config, operations, THREADS, 1, out);
        List<Double> redriveRates = new ArrayList<>();
        List<Double> anchorRates = new ArrayList<>();
        List<Double> ceilings = new ArrayList<>();
        try (Database admin = Database.open(config, THREADS + 2); Redis redis = Redis.connect(config)) {
            try {
                JitWarmUp jit = new JitWarmUp();
                double compilerShare = 1;
                for (int warmUp = 1; warmUp <= MAX_WARM_UPS && !JitWarmUp.settled(compilerShare); warmUp++) {
                    jit.start();
                    redrive.drain(admin, redis, false);
                    drainWithDbScheduler(config, admin, redis, operations);
                    compilerShare = jit.share();
                    out.printf(Locale.ROOT, "warm-up round %d done (JIT compiler %.0f %% of the time, load %s), "
                            + "not counted%n", warmUp, compilerShare * 100, LoadAverage.now());
                }
                for (int round = 1; round <= rounds; round++) {
                    double ceiling = CommitCeiling.commitsPerSecond(WorkerBenchmark.fresh(admin, redis), THREADS,
                            WorkerBenchmark.CEILING_RUN);
                    double mine = redrive.drain(admin, redis, false).operationsPerSecond();
                    double theirs = drainWithDbScheduler(config, admin, redis, operations);
                    out.printf(Locale.ROOT, "round %d (load %s): commit ceiling %.0f/s, Redrive %.0f operations/s, "
                            + "db-scheduler %.0f executions/s: %.2fx%n", round, LoadAverage.now(), ceiling, mine, theirs,
                            mine / theirs);
                    ceilings.add(ceiling);
                    redriveRates.add(mine);
                    anchorRates.add(theirs);
                }
            } finally {
                admin.dropSchema();
                redis.deleteNamespaceKeys();
            }
        }
        double mine = WorkerBenchmark.median(redriveRates);
        out.printf(Locale.ROOT, "median: Redrive %.0f/s, db-scheduler %.0f/s: %.2fx (target >= 1.5x); "
                        + "Redrive %.2fx of the commit ceiling (target >= 0.8x)%n", mine, WorkerBenchmark.median(anchorRates),
                mine / WorkerBenchmark.median(anchorRates), mine / WorkerBenchmark.median(ceilings));
    }

    /** Schedules every execution as due now (not timed), then times the scheduler until all of them have run. */
    private static double drainWithDbScheduler(RedriveConfig config, Database admin, Redis redis, int operations)
            throws Exception {
        WorkerBenchmark.fresh(admin, redis);
        admin.jdbc().update(TASKS_TABLE);
        CountDownLatch executed = new CountDownLatch(operations);
        OneTimeTask<Void> noOp = Tasks.oneTime("no-op").execute((instance, context) -> executed.countDown());
        try (Database store = Database.open(config, THREADS + 4)) {
            Scheduler scheduler = Scheduler.create(store.dataSource(), noOp)
                    .threads(THREADS)
                    .pollUsingLockAndFetch(0.5, 3.0)
                    .pollingInterval(Duration.ofMillis(100))
                    .build();
            List<TaskInstance<?>> instances = new ArrayList<>(operations);
            for (int i = 0; i < operations; i++) {
                instances.add(noOp.instance("op-" + i));
            }
            scheduler.scheduleBatch(instances, Instant.now());
            long started = System.nanoTime();
            scheduler.start();
            try {
                if (!executed.await(30, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("db-scheduler did not finish " + operations + " executions in 30 min");
                }
                return operations / ((System.nanoTime() - started) / 1e9);
            } finally {
                scheduler.stop();
            }
        }
    }
}
