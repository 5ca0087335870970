package dev.redrive.worker;

import dev.redrive.broker.Redis;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.RedisServerProcess;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis crashes and comes back empty while two workers are busy: without a restart of either, the consumer group is
 * created again, everything PostgreSQL says is waiting is published again at once (not after the sweep's grace
 * period: the workers keep its default of five minutes), and every operation runs exactly once.
 */
class RedisRestartTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void redisRestartedEmptyUnderLoad_everyOperationRunsExactlyOnce_withoutAWorkerRestart() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start();
             Redis redis = Redis.connect(ns.configWithRedis(server.uri()));
             WorkerTestKit kit = new WorkerTestKit(ns, redis)) {
            kit.start(kit.worker("restart-a", kit.charge(Duration.ofSeconds(5))));
            kit.start(kit.worker("restart-b", kit.charge(Duration.ofSeconds(5))));
            List<OperationId> dispatched = new CopyOnWriteArrayList<>();
            AtomicBoolean producing = new AtomicBoolean(true);
            Thread producer = new Thread(() -> {
                for (int i = 0; producing.get(); i++) {
                    OperationId id = new OperationId("restart", "op" + i, 0);
                    try {
                        kit.client().dispatch(kit.client().newDispatch(id, "demo.charge", "1",
                                "{\"amount\":" + i + (i % 7 == 0 ? ",\"fault\":\"transient:1\"" : "") + "}",
                                null, null, null));
                    } catch (RuntimeException redisDown) {
                        // Recorded in PostgreSQL before the publish failed: it is waiting all the same.
                    }
                    dispatched.add(id);
                    pause(15);
                }
            }, "producer");
            producer.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> succeeded() >= 100);
            // A burst just before the crash, so that the stream and the retry set hold work that only PostgreSQL
            // still knows about afterwards.
            for (int i = 0; i < 300; i++) {
                OperationId id = new OperationId("burst", "op" + i, 0);
                kit.client().dispatch(kit.client().newDispatch(id, "demo.charge", "1",
                        "{\"amount\":" + i + (i % 5 == 0 ? ",\"fault\":\"rate_limit:1:2\"" : "") + "}", null, null, null));
                dispatched.add(id);
            }
            long waiting = kit.count("SELECT count(*) FROM operations WHERE status <> 'SUCCEEDED'");

            server.restartEmpty(Duration.ofMillis(500));
            long back = System.nanoTime();
            pause(3000);
            producing.set(false);
            producer.join();

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> succeeded() == dispatched.size());
            long recoveredWithin = Duration.ofNanos(System.nanoTime() - back).toSeconds();
            assertThat(recoveredWithin).as("seconds after Redis came back").isLessThan(60);
            Map<String, Long> effects = new HashMap<>();
            kit.jdbc().query("SELECT idempotency_key, count(*) FROM demo_tool_effects GROUP BY idempotency_key",
                    row -> effects.put(row.getString(1), row.getLong(2)));
            for (OperationId id : dispatched) {
                assertThat(effects.get(id.idempotencyKey())).as("effects of %s", id).isEqualTo(1L);
            }
            assertThat(kit.count("SELECT count(*) FROM operations WHERE status <> 'SUCCEEDED'")).isZero();
            System.out.printf("redis restart: %d operations (%d waiting at the crash), all succeeded once, %d s after "
                    + "Redis came back%n", dispatched.size(), waiting, recoveredWithin);
        }
    }

    private static long succeeded() {
        return ns.database().jdbc().queryLong("SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'");
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
