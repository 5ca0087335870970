package dev.redrive.worker;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class TwoWorkersLoadTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int OPERATIONS = 5_000;
    private static final double DUPLICATE_SHARE = 0.30;
    private static final Duration SETTLE = Duration.ofMinutes(4);

    @Test
    void twoWorkersFiveThousandOperationsThirtyPercentDuplicates_everyEffectExactlyOnce() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            kit.start(kit.worker("load-a", kit.charge(Duration.ofSeconds(1))).concurrency(16).batchSize(128));
            kit.start(kit.worker("load-b", kit.charge(Duration.ofSeconds(1))).concurrency(16).batchSize(128));

            Random random = new Random(7);
            List<DispatchEnvelope> envelopes = new ArrayList<>();
            for (int i = 0; i < OPERATIONS; i++) {
                envelopes.add(kit.client().newDispatch(new OperationId("load-" + (i % 50), "node-" + i, 0),
                        "demo.charge", "1", payload(random), "trace-" + i, null, null));
            }
            publishWithDuplicates(kit, envelopes, random);

            // A correctness bound, not a timing one: generous for a loaded machine; polling returns as soon as it holds.
            await().atMost(SETTLE).pollInterval(Duration.ofMillis(250)).until(() -> kit.count(
                    "SELECT count(*) FROM operations WHERE status NOT IN ('SUCCEEDED', 'DEAD_LETTERED')") == 0);
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100)).until(() -> kit.pendingEntries() == 0);

            assertThat(kit.count("SELECT count(*) FROM operations")).isEqualTo(OPERATIONS);
            assertThat(kit.count("""
                    SELECT count(*) FROM operations o
                     WHERE o.status = 'SUCCEEDED'
                       AND (SELECT count(*) FROM demo_tool_effects e WHERE e.idempotency_key = o.idempotency_key) <> 1"""))
                    .as("succeeded operations without exactly one effect").isZero();
            assertThat(kit.count("""
                    SELECT count(*) FROM operations o
                     WHERE o.status = 'DEAD_LETTERED'
                       AND EXISTS (SELECT 1 FROM demo_tool_effects e WHERE e.idempotency_key = o.idempotency_key)"""))
                    .as("dead-lettered operations that changed the world").isZero();
            assertThat(kit.count("SELECT count(*) FROM operations WHERE status = 'DEAD_LETTERED'"))
                    .isEqualTo(kit.count("SELECT count(*) FROM dlq_entries"));
        }
    }

    /** Mostly clean charges; some fail once in each retryable way, a few are invalid, a few lose their answer. */
    private static String payload(Random random) {
        int roll = random.nextInt(1000);
        String fault = roll < 50 ? "transient:1" : roll < 80 ? "rate_limit:1:1" : roll < 100 ? "invalid"
                : roll < 120 ? "timeout_after_apply:1" : roll < 122 ? "dependency_down:1" : null;
        return fault == null ? "{\"amount\":" + (1 + random.nextInt(500)) + "}"
                : "{\"amount\":" + (1 + random.nextInt(500)) + ",\"fault\":\"" + fault + "\"}";
    }

    private static void publishWithDuplicates(WorkerTestKit kit, List<DispatchEnvelope> envelopes, Random random)
            throws Exception {
        List<DispatchEnvelope> duplicates = new ArrayList<>();
        for (DispatchEnvelope envelope : envelopes) {
            if (random.nextDouble() < DUPLICATE_SHARE) {
                duplicates.add(envelope);
            }
        }
        ExecutorService publishers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            int slice = envelopes.size() / 4;
            for (int p = 0; p < 4; p++) {
                List<DispatchEnvelope> part = envelopes.subList(p * slice, p == 3 ? envelopes.size() : (p + 1) * slice);
                done.add(publishers.submit(() -> part.forEach(kit.client()::dispatch)));
            }
            done.add(publishers.submit(() -> duplicates.forEach(kit.client()::publish)));
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            publishers.shutdown();
        }
    }
}
