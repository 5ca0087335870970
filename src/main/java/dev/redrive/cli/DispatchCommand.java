package dev.redrive.cli;

import dev.redrive.broker.Redis;
import dev.redrive.config.FileProblem;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.envelope.Traceparent;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.store.tool.ToolSchemaStore;
import dev.redrive.worker.client.IdempotencyConflictException;
import dev.redrive.worker.client.WorkerClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

@Command(name = "dispatch", mixinStandardHelpOptions = true,
        description = "Publish dispatches like a workflow runtime would: record each operation in PostgreSQL, then add "
                + "it to the dispatch stream. One with --run, --node, --tool and --payload; many with --file (JSON "
                + "Lines: " + DispatchFile.FIELDS + "; - reads stdin), recorded and published in bulk.")
final class DispatchCommand extends NamespaceCommand {
    /** The options of a single dispatch, the first four required, in the order the help lists them. */
    private static final List<String> SINGLE_DISPATCH_OPTIONS = List.of("--run", "--node", "--tool", "--payload",
            "--logical-attempt", "--trace-id", "--traceparent", "--correlation-id", "--approval-id", "--schema-version");

    @Option(names = "--file", paramLabel = "FILE", description = "JSON Lines of dispatches; - reads stdin")
    String file;

    /** One dispatch; checked by {@link #call()} rather than by picocli, whose words for a mix-up name no remedy. */
    @Mixin
    One one;

    static final class One {
        @Option(names = "--run", paramLabel = "R", description = "run id")
        String runId;

        @Option(names = "--node", paramLabel = "N", description = "node id")
        String nodeId;

        @Option(names = "--tool", paramLabel = "T", description = "tool name, e.g. demo.charge")
        String tool;

        @Option(names = "--payload", paramLabel = "JSON", description = "payload, a JSON object")
        String payload;

        @Option(names = "--logical-attempt", paramLabel = "K", defaultValue = "0",
                description = "logical attempt of the node (default ${DEFAULT-VALUE})")
        int logicalAttempt;

        @Option(names = "--trace-id", paramLabel = "ID", description = "trace id carried along")
        String traceId;

        @Option(names = "--traceparent", paramLabel = "TRACEPARENT",
                description = "W3C trace context of the caller's span (00-<trace id>-<span id>-<flags>): the attempts "
                        + "continue that trace")
        String traceparent;

        @Option(names = "--correlation-id", paramLabel = "ID", description = "correlation id carried along")
        String correlationId;

        @Option(names = "--approval-id", paramLabel = "ID", description = "approval the operation runs under")
        String approvalId;

        @Option(names = "--schema-version", paramLabel = "V",
                description = "tool schema version (default: the tool's current version, else 1)")
        String schemaVersion;
    }

    @Override
    public Integer call() throws IOException {
        List<String> single = SINGLE_DISPATCH_OPTIONS.stream()
                .filter(spec.commandLine().getParseResult()::hasMatchedOption).toList();
        if (file != null && !single.isEmpty()) {
            throw new IllegalArgumentException("--file takes every dispatch from " + file + " and cannot go with "
                    + "the options of a single dispatch (" + String.join(", ", single) + "): give --file alone, or "
                    + "--run, --node, --tool and --payload without it");
        }
        if (file != null) {
            return dispatchFile();
        }
        List<String> missing = new ArrayList<>();
        addIfNull(missing, "--run", one.runId);
        addIfNull(missing, "--node", one.nodeId);
        addIfNull(missing, "--tool", one.tool);
        addIfNull(missing, "--payload", one.payload);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("a dispatch needs --run, --node, --tool and --payload (or --file with "
                    + "many), missing " + String.join(", ", missing));
        }
        return dispatchOne(one);
    }

    private static void addIfNull(List<String> missing, String option, String value) {
        if (value == null) {
            missing.add(option);
        }
    }

    private int dispatchOne(One one) {
        OperationId id = new OperationId(one.runId, one.nodeId, one.logicalAttempt);
        if (one.traceparent != null && Traceparent.parse(one.traceparent).isEmpty()) {
            throw new IllegalArgumentException("traceparent must look like 00-<32 hex trace id>-<16 hex span id>-<2 hex "
                    + "flags> (lower case, ids not all zero), got '" + one.traceparent + "'");
        }
        try (Database database = Database.open(connection.config(), 2); Redis redis = Redis.connect(connection.config())) {
            String version = one.schemaVersion != null ? one.schemaVersion
                    : new ToolSchemaStore(database.jdbc()).current(one.tool).orElse("1");
            WorkerClient client = new WorkerClient(database, redis, Clock.systemUTC());
            DispatchEnvelope envelope = client.newDispatch(id, one.tool, version, one.payload, one.traceId,
                    one.correlationId, one.approvalId);
            if (one.traceparent != null) {
                envelope = envelope.withTraceparent(one.traceparent);
            }
            EnvelopeCodec codec = new EnvelopeCodec();
            codec.decode(codec.encode(envelope));
            WorkerClient.Dispatched dispatched;
            try {
                dispatched = client.dispatch(envelope);
            } catch (IdempotencyConflictException e) {
                spec.commandLine().getErr().println("dispatch: conflict: " + e.getMessage());
                return ExitCode.BLOCKED;
            }
            spec.commandLine().getOut().printf("%s %s attempt %d as entry %s (tool %s v%s, idempotency key %s)%n",
                    dispatched.repeat() ? "already dispatched, published again:" : "dispatched", id, envelope.attempt(),
                    dispatched.entryId(), one.tool, version, envelope.idempotencyKey());
            return 0;
        }
    }

    /**
     * Reads and checks the whole file first, so that a bad line dispatches nothing; then dispatches in bulk. Redis
     * connects meanwhile, on another thread: a cold process spends about as long on that as on reading a file of
     * thousands of lines.
     */
    private int dispatchFile() throws IOException {
        String name = file.equals("-") ? "stdin" : file;
        try (Database database = Database.open(connection.config(), 2);
             RedisConnecting redis = new RedisConnecting(connection.config())) {
            List<DispatchFile.Numbered> lines;
            try (BufferedReader reader = file.equals("-")
                    ? new BufferedReader(new InputStreamReader(System.in, strictUtf8()))
                    : open(file)) {
                lines = DispatchFile.read(reader, name, Clock.systemUTC(),
                        new ToolSchemaStore(database.jdbc())::current);
            } catch (IOException | RuntimeException e) {
                redis.connected(); // throws the connect's failure first
                throw e;
            }
            WorkerClient client = new WorkerClient(database, redis.connected(), Clock.systemUTC());
            List<WorkerClient.BulkDispatched> results = client.dispatchAll(
                    lines.stream().map(DispatchFile.Numbered::envelope).toList());
            long created = 0;
            long repeats = 0;
            long conflicts = 0;
            for (int i = 0; i < results.size(); i++) {
                WorkerClient.BulkDispatched result = results.get(i);
                switch (result.recorded().outcome()) {
                    case CREATED -> created++;
                    case ALREADY_RECORDED -> repeats++;
                    case CONFLICT -> {
                        conflicts++;
                        spec.commandLine().getErr().printf("dispatch: %s line %d: conflict: %s%n", name,
                                lines.get(i).line(), result.recorded().conflict());
                    }
                }
            }
            spec.commandLine().getOut().printf("dispatched %d operation(s) from %s: %d new, %d already dispatched "
                    + "(published again), %d conflict(s) not published%n", created + repeats, name, created, repeats,
                    conflicts);
            return conflicts > 0 ? ExitCode.BLOCKED : 0;
        }
    }

    private static BufferedReader open(String file) {
        Path path = Path.of(file);
        String expected = "; expected a readable JSON Lines file, or - for stdin";
        if (!Files.exists(path)) {
            throw new IllegalArgumentException("cannot read " + file + ": no such file" + expected);
        }
        if (Files.isDirectory(path)) {
            throw new IllegalArgumentException("cannot read " + file + ": it is a directory" + expected);
        }
        try {
            return new BufferedReader(new InputStreamReader(Files.newInputStream(path), strictUtf8()));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + FileProblem.reading(e) + expected);
        }
    }

    /** Refuses bytes that are not UTF-8 instead of replacing them, so that a payload is never stored altered. */
    private static CharsetDecoder strictUtf8() {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
}
