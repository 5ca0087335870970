package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.HeldTool;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.tool.HttpTool;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.models.stream.PendingMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A delivery skipped because another worker holds a live lease on its operation is nothing wrong with the message:
 * however often the broker redelivers it meanwhile, it does not count towards the poison limit.
 */
class SkippedRedeliveryTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int DELIVERY_LIMIT = 2;

    @Test
    void redeliveredPastThePoisonLimitWhileAnotherWorkerRunsIt_isNotDeadLettered_andTakesEffectOnce() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            HttpTool charge = kit.charge(Duration.ofSeconds(5));
            HeldTool held = HeldTool.before(charge).firstCallOnly();
            // Worker A runs a long call and keeps its lease live, touching the entry once a second.
            Worker busy = kit.start(kit.worker("busy-a", held)
                    .leaseDuration(Duration.ofSeconds(3)).leaseRenewalInterval(Duration.ofSeconds(1))
                    .shutdownGrace(Duration.ofMillis(200)));
            OperationId id = kit.dispatch("busy", "charge", "{\"amount\":5}").operationId();
            assertThat(held.awaitEntered(Duration.ofSeconds(10))).as("A's call started").isTrue();

            try {
                // Worker B re-claims entries idle for 300 ms, so between A's touches it keeps receiving the entry, and
                // skips it each time: the operation is running under A's live lease.
                kit.start(kit.worker("eager-b", charge).leaseDuration(Duration.ofMillis(300))
                        .claimInterval(Duration.ofMillis(50)).deliveryLimit(DELIVERY_LIMIT));
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                        .until(() -> redeliveries() > DELIVERY_LIMIT + 1);
                assertThat(kit.jdbc().queryOne("SELECT status || '/' || lease_owner FROM operations WHERE operation_id = ?",
                        row -> row.getString(1), id.value())).contains("RUNNING/busy-a");
                assertThat(kit.callsFor(id)).as("A's call has not reached the tool yet").isZero();

                // A is stopped mid-call (a deploy): it gives its lease back, and B takes the operation over.
                busy.shutdown().get(10, TimeUnit.SECONDS);
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(20));
            } finally {
                held.release();
            }

            assertThat(kit.count("SELECT count(*) FROM dlq_entries WHERE operation_id = ?", id.value()))
                    .as("not dead-lettered").isZero();
            assertThat(kit.callsFor(id)).isEqualTo(1);
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            // B's lease is 300 ms: on a loaded machine its call can reach the tool after it, which the tool refuses
            // without acting (408, deadline_passed) and B retries; no other attempt is allowed.
            assertThat(kit.jdbc().query("SELECT consumer || '/' || outcome FROM attempts WHERE operation_id = ? "
                    + "AND error_code IS DISTINCT FROM 'http_408'", row -> row.getString(1), id.value()))
                    .containsExactly("eager-b/SUCCEEDED");
            assertThat(kit.count("SELECT processing_deliveries FROM operations WHERE operation_id = ?", id.value()))
                    .as("settled").isZero();
            await().atMost(Duration.ofSeconds(5)).until(() -> kit.pendingEntries() == 0);
        }
    }

    /** The broker's delivery count of the one dispatch entry. */
    private static long redeliveries() {
        List<PendingMessage> pending = ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers",
                Range.unbounded(), Limit.from(10));
        return pending.isEmpty() ? 0 : pending.get(0).getRedeliveryCount();
    }
}
