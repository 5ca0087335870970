package dev.redrive.worker;

import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A worker keeps the dispatch stream within its retention while it drains, instead of letting it grow forever. */
class StreamRetentionTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int OPERATIONS = 20_000;
    private static final long RETENTION = 500;

    @Test
    void drainingTwentyThousandOperations_keepsTheDispatchStreamAtItsRetention() throws Exception {
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        EnvelopeCodec codec = new EnvelopeCodec();
        String stream = ns.redis().keys().dispatch();
        RedisClient pipelining = RedisClient.create(ns.config().redisUri());
        try (StatefulRedisConnection<String, String> connection = pipelining.connect()) {
            RedisAsyncCommands<String, String> async = connection.async();
            connection.setAutoFlushCommands(false);
            List<RedisFuture<String>> added = new ArrayList<>();
            for (int i = 0; i < OPERATIONS; i++) {
                OperationId id = new OperationId("retention", "op" + i, 0);
                added.add(async.xadd(stream, codec.encode(client.newDispatch(id, "retention.noop", "1",
                        "{\"n\":" + i + "}", null, null, null))));
                if (i % 1000 == 999) {
                    connection.flushCommands();
                }
            }
            connection.flushCommands();
            assertThat(LettuceFutures.awaitAll(30, TimeUnit.SECONDS, added.toArray(RedisFuture[]::new))).isTrue();
        } finally {
            pipelining.shutdown();
        }
        long peak = ns.redis().sync().xlen(stream);
        Worker worker = Worker.builder(ns.database(), ns.redis()).tool(new AnswersAtOnce("retention.noop"))
                .consumerName("retention").streamRetention(RETENTION).build().start();
        try {
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() ->
                    ns.database().jdbc().queryLong("SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'") == OPERATIONS);
            await().atMost(Duration.ofSeconds(10)).until(() -> ns.redis().sync().xlen(stream) <= RETENTION);
            Long bytes = ns.redis().sync().memoryUsage(stream);
            System.out.printf("stream retention: %d entries before the drain, %d after (retention %d); %d bytes in "
                    + "Redis, %d per retained entry%n", peak, ns.redis().sync().xlen(stream), RETENTION, bytes,
                    bytes / Math.max(1, ns.redis().sync().xlen(stream)));
            assertThat(peak).isEqualTo(OPERATIONS);
            assertThat(ns.redis().sync().xlen(stream)).isEqualTo(RETENTION);
        } finally {
            worker.shutdown().get(10, TimeUnit.SECONDS);
        }
    }
}
