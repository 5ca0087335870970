package dev.redrive.bench;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Measures the worker's throughput against the commit ceiling of the same PostgreSQL, in one run:
 * <ol>
 *   <li>the baseline: single-row autocommit transactions per second from as many connections as the worker uses,
 *   measured right before and right after the worker (on a shared machine the load moves; the ratio is taken against
 *   the mean of the two, and both are printed so that a run whose load changed underneath shows it);</li>
 *   <li>the worker: {@code operations} dispatches published beforehand, then timed from start until every operation
 *   has SUCCEEDED, with a tool that answers at once; the server's commit counter gives transactions per operation
 *   (PostgreSQL counts read-only transactions too, and those of every other session on the same database, so this is
 *   an upper bound on the worker's write commits).</li>
 * </ol>
 * It runs in a throw-away namespace, dropped afterwards.
 */
public final class WorkerBenchmark {
    private static final String SUCCEEDED = "SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'";
    private static final String COMMITS = "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()";
    static final Duration CEILING_RUN = Duration.ofSeconds(4);
    /** The most drains the JVM warms up with before drains are counted (see {@link JitWarmUp}). */
    private static final int MAX_WARM_UPS = 3;

    private final RedriveConfig config;
    private final int operations;
    private final int concurrency;
    private final int drains;
    private final PrintWriter out;

    /**
     * @param drains how many drains of {@code operations} to run one after the other, each in a fresh namespace: with
     *               more than one, the first warms the JVM up and is not counted, nor is each next one during which the
     *               JIT compiler was still busy (at most {@value #MAX_WARM_UPS} warm-ups, and two drains or more are
     *               left to count from four on); the spread of the others' rates, each against the commit ceiling
     *               measured around it (the mean of the ones right before and right after), shows whether some fall into a slow mode
     */
    public WorkerBenchmark(RedriveConfig config, int operations, int concurrency, int drains, PrintWriter out) {
        this.config = config;
        this.operations = operations;
        this.concurrency = concurrency;
        this.drains = drains;
        this.out = out;
    }

    public Result run() throws Exception {
        try (Database admin = Database.open(config, concurrency + 2); Redis redis = Redis.connect(config)) {
            try {
                double before = CommitCeiling.commitsPerSecond(fresh(admin, redis), concurrency, CEILING_RUN);
                out.printf(Locale.ROOT, "baseline: PostgreSQL commits %.0f single-row transactions/s from %d connections%n",
                        before, concurrency);
                Drains drained = drainAll(admin, redis, before);
                double after = CommitCeiling.commitsPerSecond(admin, concurrency, CEILING_RUN);
                out.printf(Locale.ROOT, "baseline: %.0f transactions/s again after the worker; mean %.0f%n", after,
                        (before + after) / 2);
                Measured median = medianDrain(drained.measured);
                Result result = new Result(median.operationsPerSecond(), (before + after) / 2,
                        median.commitsPerOperation());
                out.printf(Locale.ROOT, "ratio:    %.2fx of the commit ceiling (target >= 0.80x), %.2f commits/operation (target <= 1.20)%n",
                        result.ratio(), result.commitsPerOperation());
                printColdAndWarm(drained, median);
                return result;
            } finally {
                admin.dropSchema();
                redis.deleteNamespaceKeys();
            }
        }
    }

    /** What the drains gave: the counted ones, each one's ratio to the ceiling around it, the warm-ups, the first. */
    private static final class Drains {
        final List<Measured> measured = new ArrayList<>();
        final List<Double> ratios = new ArrayList<>();
        int warmUps;
        Measured cold;
        double coldRatio;
    }

    private Drains drainAll(Database admin, Redis redis, double before) throws Exception {
        Drains drained = new Drains();
        int warmUpsAtMost = drains == 1 ? 0 : Math.max(1, Math.min(MAX_WARM_UPS, drains - 2));
        JitWarmUp jit = new JitWarmUp();
        double ceilingBefore = before;
        for (int drain = 1; drain <= drains; drain++) {
            jit.start();
            Measured worker = drain(admin, redis, drain == 1);
            double compilerShare = jit.share();
            // Warm-ups are the first drains: the first one, then each during which the compiler was still busy.
            boolean warmUp = drained.warmUps == drain - 1 && drained.warmUps < warmUpsAtMost
                    && (drain == 1 || !JitWarmUp.settled(compilerShare));
            // A single drain is set against the ceiling before it; several, each against the mean of the ceilings
            // measured around it, so that a drain slowed by the machine's load is told apart from one that fell into a
            // slow mode of its own (the one after a drain is the one before the next: one 4 s measurement alone was
            // noisy enough that one that came out high made a drain look slow).
            double ceiling = before;
            String ceilingNote = "";
            if (drains > 1) {
                double ceilingAfter = CommitCeiling.commitsPerSecond(admin, concurrency, CEILING_RUN);
                ceiling = (ceilingBefore + ceilingAfter) / 2;
                ceilingBefore = ceilingAfter;
                ceilingNote = String.format(Locale.ROOT, ", %.2fx of the %.0f commits/s measured around it",
                        worker.operationsPerSecond() / ceiling, ceiling);
                if (!warmUp) {
                    drained.ratios.add(worker.operationsPerSecond() / ceiling);
                }
            }
            if (drain == 1) {
                drained.cold = worker;
                drained.coldRatio = worker.operationsPerSecond() / ceiling;
            }
            if (warmUp) {
                drained.warmUps++;
            } else {
                drained.measured.add(worker);
            }
            out.printf(Locale.ROOT, "worker:   drain %d%s: %d operations in %.2f s = %.0f operations/s%s, "
                            + "%.2f server transactions per operation (reads included), longest stall %d ms, "
                            + "JIT compiler %.0f %% of the time, load %s%n", drain,
                    warmUp ? " (warm-up, not counted)" : "", operations, worker.seconds(),
                    worker.operationsPerSecond(), ceilingNote, worker.commitsPerOperation(),
                    worker.longestStall().toMillis(), compilerShare * 100, LoadAverage.now());
        }
        return drained;
    }

    private void printColdAndWarm(Drains drained, Measured median) {
        out.printf(Locale.ROOT, "cold:     drain 1, the first work of a fresh JVM (as a worker process starts): "
                + "%.0f operations/s = %.2fx of the ceiling%n", drained.cold.operationsPerSecond(), drained.coldRatio);
        if (drains == 1) {
            out.printf(Locale.ROOT, "warm:     run --drains 3 or more for the figures of a warmed-up JVM%n");
            return;
        }
        out.printf(Locale.ROOT, "warm:     median of the counted drains: %.0f operations/s = %.2fx of the "
                + "ceiling measured around each%n", median.operationsPerSecond(), median(drained.ratios));
        double medianRatio = median(drained.ratios);
        double slowestRatio = drained.ratios.stream().min(Comparator.naturalOrder()).orElseThrow();
        List<Double> rates = drained.measured.stream().map(Measured::operationsPerSecond).toList();
        double slowestRate = rates.stream().min(Comparator.naturalOrder()).orElseThrow();
        double medianRate = median(rates);
        out.printf(Locale.ROOT, "spread:   %d drains counted after %d warm-up drains; each against the "
                        + "ceiling measured around it: median %.2fx, slowest %.2fx, %.2fx of the median "
                        + "(target >= 0.70x); in operations/s: median %.0f, slowest %.0f, %.2fx; longest "
                        + "stall %d ms%n", drained.ratios.size(), drained.warmUps,
                medianRatio, slowestRatio, slowestRatio / medianRatio, medianRate, slowestRate,
                slowestRate / medianRate,
                drained.measured.stream().mapToLong(m -> m.longestStall().toMillis()).max().orElse(0));
    }

    /**
     * One drain in a fresh namespace: publishes the dispatches in bulk (comparing that with one client's commits when
     * asked), then times the worker until every operation has SUCCEEDED.
     */
    Measured drain(Database admin, Redis redis, boolean comparePublishing) throws Exception {
        fresh(admin, redis);
        publish(admin, redis, comparePublishing);
        return measureWorker(admin, redis);
    }

    static Database fresh(Database admin, Redis redis) {
        admin.dropSchema();
        redis.deleteNamespaceKeys();
        admin.migrate();
        return admin;
    }

    /** The median of the values (the upper one of the two middle ones for an even count). */
    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    static Measured medianDrain(List<Measured> measured) {
        List<Measured> sorted = measured.stream().sorted(Comparator.comparingDouble(Measured::operationsPerSecond))
                .toList();
        return sorted.get(sorted.size() / 2);
    }

    /**
     * Publishes every dispatch in bulk, and compares its rate with what one client commits one row at a time,
     * measured right before: the ratio says what recording many operations per statement and pipelining the
     * publishes buys over dispatching them one by one.
     */
    private void publish(Database database, Redis redis, boolean compare) throws Exception {
        double oneClient = compare ? CommitCeiling.commitsPerSecond(database, 1, CEILING_RUN) : 0;
        WorkerClient client = new WorkerClient(database, redis, Clock.systemUTC());
        List<DispatchEnvelope> dispatches = new ArrayList<>(operations);
        for (int i = 0; i < operations; i++) {
            OperationId id = new OperationId("bench-run-" + (i % 50), "node-" + i, 0);
            dispatches.add(client.newDispatch(id, BenchTool.NO_OP.name(), "1", "{\"n\":" + i + "}", "trace-" + i, null, null));
        }
        long started = System.nanoTime();
        client.dispatchAll(dispatches);
        double perSecond = operations / ((System.nanoTime() - started) / 1e9);
        if (!compare) {
            return;
        }
        out.printf(Locale.ROOT, "published %d dispatches in bulk: %.0f/s; one client commits %.0f single-row "
                + "transactions/s: %.2fx (target >= 3x)%n", operations, perSecond, oneClient, perSecond / oneClient);
    }

    record Measured(double seconds, double operationsPerSecond, double commitsPerOperation,
                            Duration longestStall) {
    }

    private Measured measureWorker(Database admin, Redis redis) throws Exception {
        long commitsBefore;
        long started;
        long finished;
        long longestStall = 0;
        try (Database workerStore = Database.open(config, concurrency + 4)) {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            Worker worker = Worker.builder(workerStore, redis)
                    .tool(BenchTool.NO_OP)
                    .consumerName("bench-1")
                    .concurrency(concurrency)
                    .meterRegistry(meters)
                    .build();
            commitsBefore = serverCommits(admin);
            started = System.nanoTime();
            worker.start();
            // The longest time without progress once the first operation succeeded (before it, the worker starts): a
            // drain that falls into a slow mode shows it here. Progress is the worker's count of committed attempts,
            // which it counts after each commit; counting the database's rows instead every 100 ms took about a
            // twentieth of the server's time during a drain. The database confirms the end, and is asked once a
            // second too: an attempt whose commit reached the server while its answer was lost is not counted.
            long done = 0;
            long lastProgress = 0;
            for (int poll = 1; done < operations; poll++) {
                Thread.sleep(20);
                long now = poll % 50 == 0 ? Math.max(committedAttempts(meters), admin.jdbc().queryLong(SUCCEEDED))
                        : committedAttempts(meters);
                if (now > done) {
                    if (done > 0) {
                        longestStall = Math.max(longestStall, System.nanoTime() - lastProgress);
                    }
                    lastProgress = System.nanoTime();
                    done = now;
                }
            }
            while (admin.jdbc().queryLong(SUCCEEDED) < operations) {
                Thread.sleep(20);
            }
            finished = System.nanoTime();
            worker.shutdown().get();
        }
        // Closing the worker's pool ends its sessions, which flushes their statistics to the server's counters.
        long commits = settledCommits(admin) - commitsBefore;
        double seconds = (finished - started) / 1e9;
        return new Measured(seconds, operations / seconds, (double) commits / operations, Duration.ofNanos(longestStall));
    }

    private static long committedAttempts(SimpleMeterRegistry meters) {
        return Math.round(meters.find("redrive.attempts").counters().stream().mapToDouble(Counter::count).sum());
    }

    private static long serverCommits(Database database) {
        return database.jdbc().queryLong(COMMITS);
    }

    /** Statistics reach the shared counters with a delay; wait until the commit counter stops moving. */
    private static long settledCommits(Database database) throws InterruptedException {
        long previous = -1;
        long current = serverCommits(database);
        for (int i = 0; i < 30 && current != previous; i++) {
            Thread.sleep(500);
            previous = current;
            current = serverCommits(database);
        }
        return current;
    }

    /** Operations per second, the baseline's commits per second, and commits per operation. */
    public record Result(double operationsPerSecond, double commitCeiling, double commitsPerOperation) {
        public double ratio() {
            return operationsPerSecond / commitCeiling;
        }
    }
}
