package dev.redrive.triage;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.InvalidInputFailure;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/**
 * Messages the worker dead-letters as themselves, made the real way: a publisher adds them to the dispatch stream and
 * a running worker reads them. The caller starts the worker (and shuts it down); this publishes and waits for entries.
 */
public final class MessageDeadLetters {
    private final TestNamespace ns;
    private final WorkerClient client;

    public MessageDeadLetters(TestNamespace ns) {
        this.ns = ns;
        this.client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
    }

    public WorkerClient client() {
        return client;
    }

    /** A worker on the namespace with these tools, started; shut it down when the entries are in. */
    public Worker startWorker(Tool... tools) {
        Worker.Builder builder = Worker.builder(ns.database(), ns.redis()).consumerName("dead-letters")
                .claimInterval(Duration.ofMillis(200));
        for (Tool tool : tools) {
            builder.tool(tool);
        }
        return builder.build().start();
    }

    /** A dispatch as a runtime without Java code might get it wrong: no tool. Returns its stream entry id. */
    public String publishWithoutTool(OperationId id, String payload, String traceId) {
        DispatchEnvelope envelope = client.newDispatch(id, "test.ok", "1", payload, traceId, null, null);
        Map<String, String> fields = new EnvelopeCodec().encode(envelope);
        fields.remove("tool");
        return ns.redis().sync().xadd(ns.redis().keys().dispatch(), fields);
    }

    /** The id of the DLQ entry the worker enters for a stream entry, once it has. */
    public long awaitEntry(String streamEntryId) {
        await().atMost(Duration.ofSeconds(20)).until(() -> entryOf(streamEntryId) != null);
        return entryOf(streamEntryId);
    }

    private Long entryOf(String streamEntryId) {
        return ns.database().jdbc().queryOne("SELECT id FROM dlq_entries WHERE entry_id = ?", row -> row.getLong(1),
                streamEntryId).orElse(null);
    }

    /** A tool that refuses every payload: the operation is dead-lettered after its first attempt. */
    public record RefusesEveryPayload(String name) implements Tool {
        @Override
        public String schemaVersion() {
            return "1";
        }

        @Override
        public String execute(ToolCall call) throws InvalidInputFailure {
            throw new InvalidInputFailure("negative_amount", "amount must be positive");
        }
    }
}
