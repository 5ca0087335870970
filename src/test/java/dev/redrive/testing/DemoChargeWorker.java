package dev.redrive.testing;

import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.HttpTool;

import java.time.Clock;
import java.time.Duration;

/**
 * A started worker that runs {@code demo.charge} (schema 1) against the demo tools over real HTTP, with quick leases
 * and claims, and a client that dispatches to it: what the decision and correction scenarios share.
 */
public final class DemoChargeWorker implements AutoCloseable {
    private final DemoToolServer tools;
    private final Worker worker;
    private final WorkerClient client;

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
    }

    public WorkerClient client() {
        return client;
    }

    /** The demo charge tool's look-up by idempotency key: what reconciliation and a redrive's verification ask. */
    public SideEffectLookup lookup() {
        return HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint());
    }

    @Override
    public void close() {
        worker.shutdown().join();
        tools.close();
    }
}
