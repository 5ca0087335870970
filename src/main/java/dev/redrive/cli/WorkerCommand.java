package dev.redrive.cli;

import dev.redrive.broker.Redis;
import dev.redrive.demo.tools.DemoTool;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.store.Database;
import dev.redrive.store.tool.ToolSchemaStore;
import dev.redrive.worker.Worker;
import dev.redrive.worker.tool.HttpTool;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;

@Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Run the embedded worker: with --tools FILE, against your own HTTP services as the file describes "
                + "them; with --demo-tools, with the demo tools (demo.charge, demo.ship, demo.notify, demo.payout) served "
                + "in-process on loopback, each at its current schema version (1 in a fresh namespace). Migrates the "
                + "namespace first. Runs until Ctrl-C, then finishes in-flight attempts and stops.")
final class WorkerCommand extends NamespaceCommand {
    private static final String FIRST_SCHEMA_VERSION = "1";

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "8",
            description = "tool calls running at once (default ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--worker-id", paramLabel = "ID",
            description = "consumer name in group 'workers' and lease owner (default host-pid)")
    String workerId;

    @Option(names = "--stream-retention", paramLabel = "N", defaultValue = "${env:REDRIVE_STREAM_RETENTION:-100000}",
            description = "entries the dispatch and DLQ streams keep; older ones are trimmed, never one not yet read "
                    + "or acked (default ${DEFAULT-VALUE}, REDRIVE_STREAM_RETENTION)")
    long streamRetention;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "serve the worker's metrics in Prometheus text format at http://BIND:PORT/metrics "
                    + "(default: not served)")
    Integer metricsPort;

    @Option(names = "--metrics-bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "the address --metrics-port listens on (default ${DEFAULT-VALUE}; 0.0.0.0 for every "
                    + "interface)")
    String metricsBind;

    @ArgGroup(multiplicity = "1")
    ToolSource toolSource;

    static final class ToolSource {
        @Option(names = "--tools", paramLabel = "FILE",
                description = "JSON or YAML file of HTTP tools (name, url, lookup, schema_version, request_timeout, "
                        + "budget) and retry limits")
        Path file;

        @Option(names = "--demo-tools", description = "serve the demo tools in-process and run them")
        boolean demo;
    }

    @Override
    public Integer call() throws InterruptedException {
        Held held = new Held();
        Worker worker;
        try {
            Database database = held.open(Database.open(connection.config(), concurrency + 6));
            database.migrate();
            Redis redis = held.open(Redis.connect(connection.config()));
            Worker.Builder builder = Worker.builder(database, redis).concurrency(concurrency)
                    .streamRetention(streamRetention);
            if (workerId != null) {
                builder.consumerName(workerId);
            }
            PrometheusEndpoint metrics = metricsPort == null ? null
                    : held.open(PrometheusEndpoint.serve(metricsBind, metricsPort));
            if (metrics != null) {
                builder.meterRegistry(metrics.registry());
            }
            String serving = serveTools(builder, database, held);
            worker = builder.build().start();
            announce(worker, redis.keys().dispatch(), serving, metrics);
        } catch (RuntimeException e) {
            held.close();
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        PrintWriter out = spec.commandLine().getOut();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            worker.shutdown().join();
            out.printf("worker %s stopped%n", worker.consumerName());
            out.flush();
            held.close();
            stopped.countDown();
        }, "redrive-worker-shutdown"));
        stopped.await();
        return 0;
    }

    /** Gives the builder its tools, as the options say; returns what it serves, in words. */
    private String serveTools(Worker.Builder builder, Database database, Held held) {
        if (toolSource.demo) {
            DemoToolServer demoTools = held.open(DemoToolServer.start(database));
            serveDemoTools(builder, database, demoTools);
            return "demo tools at " + demoTools.chargeEndpoint();
        }
        ToolsFile file = ToolsFile.read(toolSource.file);
        file.configure(builder, toolSource.file);
        return file.tools().size() + " tool(s) from " + toolSource.file;
    }

    private void announce(Worker worker, String stream, String serving, PrometheusEndpoint metrics) {
        PrintWriter out = spec.commandLine().getOut();
        out.printf("worker %s consuming %s (group workers) in namespace %s; %s; Ctrl-C to stop%n",
                worker.consumerName(), stream, connection.config().namespace(), serving);
        if (metrics != null) {
            out.printf("metrics at %s%n", metrics.url());
        }
        out.flush();
    }

    /** What the worker process holds open, closed in the reverse order of opening: when it stops, or fails to start. */
    private static final class Held {
        private final Deque<AutoCloseable> opened = new ArrayDeque<>();

        <T extends AutoCloseable> T open(T resource) {
            opened.push(resource);
            return resource;
        }

        void close() {
            while (!opened.isEmpty()) {
                try {
                    opened.pop().close();
                } catch (Exception e) {
                    // the process is ending: what failed to close is closed by the operating system
                }
            }
        }
    }

    /** A version set with `tool schema set` (or by the sandbox) is kept: the worker runs the tools as deployed. */
    private static void serveDemoTools(Worker.Builder builder, Database database, DemoToolServer tools) {
        ToolSchemaStore schemas = new ToolSchemaStore(database.jdbc());
        for (DemoTool tool : DemoTool.values()) {
            String version = schemas.current(tool.toolName()).orElse(FIRST_SCHEMA_VERSION);
            builder.tool(HttpTool.builder(tool.toolName(), version, tools.endpoint(tool))
                    .lookupEndpoint(tools.lookupEndpoint(tool)).build());
        }
    }
}
