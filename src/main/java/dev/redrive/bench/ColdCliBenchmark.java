package dev.redrive.bench;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What an operator gets from the command line as it runs, cold: each command is a new JVM started from the same
 * class path as this one ({@code java -jar redrive.jar} gives the jar), timed from its start to its exit, with the
 * JVM's own start taken off by timing {@code dlq groups} just before it, with the JIT the installed {@code redrive}
 * command runs with ({@link #LAUNCHER_JAVA_OPTIONS}). Against one client's single-row commits
 * measured right before each, on the same server:
 * <ul>
 *   <li>{@code redrive --group FP} of dead letters a real worker produced (a tool that refuses every call);</li>
 *   <li>{@code dispatch --file} of a JSON Lines file of new operations.</li>
 * </ul>
 * It runs in a throw-away namespace, dropped afterwards.
 */
public final class ColdCliBenchmark {
    /**
     * The JVM options of the installed CLI launcher that change its speed (installer/jpackage/redrive-cli.properties,
     * kept equal by a test): C1 alone, since a command ends before C2's code would pay for itself.
     */
    public static final List<String> LAUNCHER_JAVA_OPTIONS = List.of("-XX:TieredStopAtLevel=1");
    private static final Duration CEILING_RUN = Duration.ofSeconds(4);
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(10);

    private final RedriveConfig config;
    private final int deadLetters;
    private final int dispatches;
    private final PrintWriter out;

    public ColdCliBenchmark(RedriveConfig config, int deadLetters, int dispatches, PrintWriter out) {
        if (deadLetters < 1 || dispatches < 1) {
            throw new IllegalArgumentException("--dead-letters and --dispatches must be 1 or more, got " + deadLetters
                    + " and " + dispatches);
        }
        this.config = config;
        this.deadLetters = deadLetters;
        this.dispatches = dispatches;
        this.out = out;
    }

    /** Cold items per second and their ratio to one client's commits: {@code redrive --group}, then dispatch. */
    public record Result(double groupItemsPerSecond, double groupRatio, double dispatchesPerSecond,
                         double dispatchRatio) {
    }

    public Result run() throws Exception {
        try (Database database = Database.open(config, 4); Redis redis = Redis.connect(config)) {
            try {
                WorkerBenchmark.fresh(database, redis);
                String fingerprint = deadLettered(database, redis);
                double oneClient = CommitCeiling.commitsPerSecond(database, 1, CEILING_RUN);
                double start = seconds("dlq", "groups");
                double group = seconds("redrive", "--group", fingerprint, "--reason", "cold command line benchmark",
                        "--operator", "bench") - start;
                print("redrive --group", deadLetters, "dead letters a worker produced", group, start, oneClient);

                Path file = jsonLines();
                try {
                    double oneClientAgain = CommitCeiling.commitsPerSecond(database, 1, CEILING_RUN);
                    double startAgain = seconds("dlq", "groups");
                    double dispatch = seconds("dispatch", "--file", file.toString()) - startAgain;
                    print("dispatch --file", dispatches, "new operations", dispatch, startAgain, oneClientAgain);
                    return new Result(deadLetters / group, deadLetters / group / oneClient, dispatches / dispatch,
                            dispatches / dispatch / oneClientAgain);
                } finally {
                    Files.deleteIfExists(file);
                }
            } finally {
                database.dropSchema();
                redis.deleteNamespaceKeys();
            }
        }
    }

    private void print(String command, int items, String what, double seconds, double jvmStart, double oneClient) {
        out.printf(Locale.ROOT, "%s of %,d %s, cold: %.2f s after the JVM's start (%.2f s, timed with dlq groups) = "
                        + "%.0f items/s = %.2fx one client's single-row commits (%.0f/s), load %s; run as the "
                        + "installed redrive runs it (%s)%n", command, items, what, seconds, jvmStart, items / seconds,
                items / seconds / oneClient, oneClient, LoadAverage.now(), String.join(" ", LAUNCHER_JAVA_OPTIONS));
        out.flush();
    }

    /** Dispatches the dead letters' operations and runs a worker until each is in the DLQ; returns their group. */
    private String deadLettered(Database database, Redis redis) throws Exception {
        WorkerClient client = new WorkerClient(database, redis, Clock.systemUTC());
        List<DispatchEnvelope> envelopes = new ArrayList<>(deadLetters);
        for (int i = 0; i < deadLetters; i++) {
            envelopes.add(client.newDispatch(new OperationId("cold-cli-" + (i % 20), "node-" + i, 0),
                    BenchTool.REFUSING.name(), "1", "{\"amount\":" + (i % 97 + 1) + "}", null, null, null));
        }
        client.dispatchAll(envelopes);
        Worker worker = Worker.builder(database, redis).tool(BenchTool.REFUSING).concurrency(8).build().start();
        try {
            long deadline = System.nanoTime() + COMMAND_TIMEOUT.toNanos();
            while (database.jdbc().queryLong("SELECT count(*) FROM dlq_entries") < deadLetters) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the worker did not dead-letter " + deadLetters + " operations in "
                            + COMMAND_TIMEOUT.toMinutes() + " minutes");
                }
                Thread.sleep(200);
            }
        } finally {
            worker.shutdown().get(30, TimeUnit.SECONDS);
        }
        database.jdbc().update("VACUUM (ANALYZE) dlq_entries");
        return database.jdbc().queryOne("SELECT error_fingerprint FROM dlq_entries LIMIT 1", row -> row.getString(1))
                .orElseThrow();
    }

    private Path jsonLines() throws IOException {
        Path file = Files.createTempFile("redrive-bench-dispatch", ".jsonl");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < dispatches; i++) {
            lines.append("{\"run\":\"cold-dispatch-").append(i % 20).append("\",\"node\":\"node-").append(i)
                    .append("\",\"tool\":\"").append(BenchTool.NO_OP.name()).append("\",\"payload\":{\"amount\":")
                    .append(i % 97 + 1).append("}}\n");
        }
        Files.writeString(file, lines, StandardCharsets.UTF_8);
        return file;
    }

    /** Runs one command in a new JVM, as an operator's shell does, and returns how long it took; it must succeed. */
    private double seconds(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
        command.addAll(LAUNCHER_JAVA_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.redrive.cli.Main"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = builder.environment();
        env.put("REDRIVE_PG_URL", config.pgUrl());
        env.put("REDRIVE_PG_USER", config.pgUser());
        env.put("REDRIVE_PG_PASSWORD", config.pgPassword());
        env.remove("REDRIVE_PG_PASSWORD_FILE");
        env.put("REDRIVE_REDIS_URI", config.redisUri());
        env.put("REDRIVE_NAMESPACE", config.namespace());
        if (config.tls().enabled()) {
            env.put("REDRIVE_TLS", config.tls().mode().option());
            if (config.tls().caFile() != null) {
                env.put("REDRIVE_TLS_CA", config.tls().caFile().toString());
            }
        }
        long started = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(COMMAND_TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", arguments) + " did not end in "
                    + COMMAND_TIMEOUT.toMinutes() + " minutes");
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", arguments) + " exited " + process.exitValue());
        }
        return seconds;
    }
}
