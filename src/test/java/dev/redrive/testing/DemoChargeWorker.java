package dev.redrive.testing;

import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Jdbc;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.HttpTool;

import java.time.Clock;
import java.time.Duration;

import static org.awaitility.Awaitility.await;

/**
 * A started worker that runs {@code demo.charge} (schema 1) against the demo tools over real HTTP, with quick leases
 * and claims, and a client that dispatches to it: what the decision and correction scenarios share.
 */
public final class DemoChargeWorker implements AutoCloseable {
    private final DemoToolServer tools;
    private final Worker worker;
    private final WorkerClient client;
    private final Jdbc jdbc;

    /** @param sweepGrace how long a PENDING operation waits before the worker's sweep publishes it again */
    public DemoChargeWorker(TestNamespace ns, String consumerName, Duration sweepGrace) {
        this.tools = DemoToolServer.start(ns.database());
        this.worker = Worker.builder(ns.database(), ns.redis())
                .tool(HttpTool.builder("demo.charge", "1", tools.chargeEndpoint()).lookupEndpoint(tools.lookupEndpoint())
                        .requestTimeout(Duration.ofSeconds(2)).build())
                .consumerName(consumerName)
                .concurrency(4)
                .leaseDuration(Duration.ofSeconds(2))
                .claimInterval(Duration.ofMillis(200))
                .sweepGrace(sweepGrace)
                .shutdownGrace(Duration.ofSeconds(5))
                .build()
                .start();
        this.client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        this.jdbc = ns.database().jdbc();
    }

    public WorkerClient client() {
        return client;
    }

    /** The demo charge tool's look-up by idempotency key: what reconciliation and a redrive's verification ask. */
    public SideEffectLookup lookup() {
        return HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint());
    }

    /** The operation's status, or an empty text while it has no row. */
    public String status(OperationId id) {
        return jdbc.queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), id.value())
                .orElse("");
    }

    /** Waits until the operation has {@code status}: up to 20 s, long enough for a loaded machine. */
    public void awaitStatus(OperationId id, String status) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> status.equals(status(id)));
    }

    /** The calls the tool received with the operation's idempotency key. */
    public long callsFor(OperationId id) {
        return jdbc.queryLong("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key = ?", id.idempotencyKey());
    }

    /** The effects the tool applied under the operation's idempotency key. */
    public long effectsFor(OperationId id) {
        return jdbc.queryLong("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key = ?", id.idempotencyKey());
    }

    @Override
    public void close() {
        worker.shutdown().join();
        tools.close();
    }
}
