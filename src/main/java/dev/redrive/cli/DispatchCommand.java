package dev.redrive.cli;

import dev.redrive.broker.Redis;
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
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.time.Clock;
import java.util.concurrent.Callable;

@Command(name = "dispatch", mixinStandardHelpOptions = true,
        description = "Publish a dispatch like a workflow runtime would: record the operation in PostgreSQL, then add "
                + "it to the dispatch stream.")
final class DispatchCommand implements Callable<Integer> {
    @Mixin
    ConnectionOptions connection;

    @Option(names = "--run", required = true, paramLabel = "R", description = "run id")
    String runId;

    @Option(names = "--node", required = true, paramLabel = "N", description = "node id")
    String nodeId;

    @Option(names = "--tool", required = true, paramLabel = "T", description = "tool name, e.g. demo.charge")
    String tool;

    @Option(names = "--payload", required = true, paramLabel = "JSON", description = "payload, a JSON object")
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

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        OperationId id = new OperationId(runId, nodeId, logicalAttempt);
        if (traceparent != null && Traceparent.parse(traceparent).isEmpty()) {
            throw new IllegalArgumentException("traceparent must look like 00-<32 hex trace id>-<16 hex span id>-<2 hex "
                    + "flags> (lower case, ids not all zero), got '" + traceparent + "'");
        }
        try (Database database = Database.open(connection.config(), 2); Redis redis = Redis.connect(connection.config())) {
            String version = schemaVersion != null ? schemaVersion
                    : new ToolSchemaStore(database.jdbc()).current(tool).orElse("1");
            WorkerClient client = new WorkerClient(database, redis, Clock.systemUTC());
            DispatchEnvelope envelope = client.newDispatch(id, tool, version, payload, traceId, correlationId, approvalId);
            if (traceparent != null) {
                envelope = envelope.withTraceparent(traceparent);
            }
            EnvelopeCodec codec = new EnvelopeCodec();
            codec.decode(codec.encode(envelope));
            WorkerClient.Dispatched dispatched;
            try {
                dispatched = client.dispatch(envelope);
            } catch (IdempotencyConflictException e) {
                spec.commandLine().getErr().println("dispatch: conflict: " + e.getMessage());
                return RedriveCommand.EXIT_BLOCKED;
            }
            spec.commandLine().getOut().printf("%s %s attempt %d as entry %s (tool %s v%s, idempotency key %s)%n",
                    dispatched.repeat() ? "already dispatched, published again:" : "dispatched", id, envelope.attempt(),
                    dispatched.entryId(), tool, version, envelope.idempotencyKey());
            return 0;
        }
    }
}
