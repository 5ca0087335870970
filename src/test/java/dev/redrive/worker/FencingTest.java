package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.HeldTool;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class FencingTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void workerPausedPastItsLease_cannotCommitAfterAnotherTookOver() throws Exception {
        HeldTool slow = HeldTool.answering("test.fenced", "{\"ran_by\":\"a\"}");
        HeldTool fast = HeldTool.answering("test.fenced", "{\"ran_by\":\"b\"}").lookingUp().release();
        // Worker a neither renews its lease nor looks for idle entries, as if its whole process were paused with the
        // tool call.
        SimpleMeterRegistry metersOfA = new SimpleMeterRegistry();
        SimpleMeterRegistry metersOfB = new SimpleMeterRegistry();
        Worker a = Worker.builder(ns.database(), ns.redis()).leaseDuration(Duration.ofSeconds(1))
                .leaseRenewalInterval(Duration.ofHours(1)).claimInterval(Duration.ofHours(1)).tool(slow)
                .consumerName("worker-a").meterRegistry(metersOfA).build().start();
        OperationId id = new OperationId("fenced", "charge", 0);
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        client.dispatch(client.newDispatch(id, "test.fenced", "1", "{}", null, null, null));
        assertThat(slow.awaitEntered(Duration.ofSeconds(10))).isTrue();

        Worker b = Worker.builder(ns.database(), ns.redis()).leaseDuration(Duration.ofSeconds(1))
                .claimInterval(Duration.ofMillis(100)).tool(fast).consumerName("worker-b").meterRegistry(metersOfB)
                .build().start();
        await().atMost(Duration.ofSeconds(10)).until(() -> "SUCCEEDED".equals(status(id)));
        slow.release();
        a.shutdown().get(10, TimeUnit.SECONDS);
        b.shutdown().get(10, TimeUnit.SECONDS);
        assertThat(metersOfA.get("redrive.commits.fenced").tag("tool", "test.fenced").counter().count()).isEqualTo(1);
        assertThat(metersOfB.get("redrive.lease.takeovers").tag("tool", "test.fenced").counter().count()).isEqualTo(1);
        assertThat(metersOfB.get("redrive.attempts").tags("class", "none", "outcome", "SUCCEEDED").counter().count()).isEqualTo(1);

        assertThat(ns.database().jdbc().query("SELECT consumer || '/' || fencing_token FROM attempts WHERE operation_id = ?",
                row -> row.getString(1), id.value())).containsExactly("worker-b/2");
        assertThat(ns.database().jdbc().queryOne("SELECT result->>'ran_by' FROM operations WHERE operation_id = ?",
                row -> row.getString(1), id.value())).contains("b");
        assertThat(ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers").getCount()).isZero();
    }

    private static String status(OperationId id) {
        return ns.database().jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?",
                row -> row.getString(1), id.value()).orElse("");
    }
}
