package dev.redrive.health;

import dev.redrive.broker.StreamKeys;
import dev.redrive.testing.TestNamespace;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueueHealthReaderTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    @Order(2)
    void readsWhatRedisAndTheDlqHold() {
        RedisClusterCommands<String, String> redis = ns.redis().sync();
        String dispatch = ns.redis().keys().dispatch();
        DlqFixture.dispatchBacklog(ns.redis(), 5, 2);
        Instant due = Instant.parse("2026-11-30T10:00:00Z");
        redis.zadd(ns.redis().keys().retry(), due.toEpochMilli(), "retry-1");
        redis.zadd(ns.redis().keys().retry(), due.plusSeconds(60).toEpochMilli(), "retry-2");

        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        DlqFixture.insert(ns.database(), "run-old", 3, "TRANSIENT", "demo.charge", "fp-a", "NONE", "OPEN",
                now.minus(Duration.ofMinutes(30)));
        DlqFixture.insert(ns.database(), "run-new", 4, "PERMISSION", "demo.charge", "fp-b", "NONE", "OPEN",
                now.minusSeconds(5));
        DlqFixture.insert(ns.database(), "run-done", 2, "TRANSIENT", "demo.charge", "fp-c", "NONE", "DISCARDED",
                now.minusSeconds(5));

        QueueHealth health = new QueueHealthReader(ns.database(), ns.redis(), Clock.fixed(now, ZoneOffset.UTC)).read();

        assertThat(health.dispatchLength()).isEqualTo(redis.xlen(dispatch)).isEqualTo(5);
        assertThat(health.groupLag()).isEqualTo(3);
        assertThat(health.pendingCount()).isEqualTo(redis.xpending(dispatch, StreamKeys.WORKER_GROUP).getCount())
                .isEqualTo(2);
        assertThat(health.pending()).extracting(QueueHealth.PendingDelivery::consumer).containsOnly("worker-a");
        assertThat(health.oldestPendingIdle()).isNotNull();
        assertThat(health.retrySetSize()).isEqualTo(2);
        assertThat(health.nextRetryDue()).isEqualTo(due);
        assertThat(health.dlqOpen()).isEqualTo(7);
        assertThat(health.dlqNewLastMinute()).isEqualTo(6);
        assertThat(health.dlqNewLastHour()).isEqualTo(9);
        assertThat(health.oldestOpenAge()).isBetween(Duration.ofMinutes(30), Duration.ofMinutes(30).plusSeconds(1));
    }

    @Test
    void thresholdsNameWhatTheyCrossed() {
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        QueueHealth health = new QueueHealth(now, 0, 0L, 0, null, java.util.List.of(), 0, null, 150, 20, 40,
                now.minus(Duration.ofHours(2)), java.util.List.of());

        assertThat(new HealthThresholds(100, 10, Duration.ofHours(1)).check(health))
                .extracting(HealthAlert::kind)
                .containsExactly(HealthAlert.Kind.DEPTH, HealthAlert.Kind.GROWTH, HealthAlert.Kind.AGE);
        assertThat(new HealthThresholds(0, 0, Duration.ZERO).check(health)).isEmpty();
        assertThat(new HealthThresholds(100, 10, Duration.ofHours(1)).check(health).get(2).message())
                .isEqualTo("oldest open DLQ entry waits for 2 h (threshold 1 h)");
    }

    @Test
    @Order(1)
    void anEmptyNamespaceReadsAsZeros() {
        QueueHealth health = new QueueHealthReader(ns.database(), ns.redis(), Clock.systemUTC()).read();

        assertThat(health.pendingCount()).isZero();
        assertThat(health.nextRetryDue()).isNull();
    }

    @Test
    void retryScoresInEpochSecondsAreUnderstoodToo() {
        assertThat(QueueHealthReader.scoreToInstant(1_764_500_000d)).isEqualTo(Instant.ofEpochSecond(1_764_500_000L));
        assertThat(QueueHealthReader.scoreToInstant(1_764_500_000_123d)).isEqualTo(Instant.ofEpochMilli(1_764_500_000_123L));
    }
}
