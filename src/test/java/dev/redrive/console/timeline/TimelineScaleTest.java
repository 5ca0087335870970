package dev.redrive.console.timeline;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TimelineScaleTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void theWholeHistoryFitsWithTheDlqMomentLast() {
        TimelineData data = new TimelineData(List.of(
                new TimelineAttempt(1, T0, T0.plusMillis(100), "RETRY_SCHEDULED", "RATE_LIMITED", "429",
                        Duration.ofSeconds(2), T0.plusSeconds(2)),
                new TimelineAttempt(2, T0.plusSeconds(2), T0.plusMillis(2_200), "DEAD_LETTERED", "PERMISSION", "403",
                        null, null)), T0.plusSeconds(3));

        TimelineScale scale = TimelineScale.of(data, 10, 1000);

        assertThat(scale.x(T0)).isGreaterThan(10);
        assertThat(scale.x(T0.plusSeconds(3))).isLessThan(1010);
        assertThat(scale.x(T0.plusSeconds(2))).isGreaterThan(scale.x(T0.plusMillis(100)));
        assertThat(scale.width(T0, T0.plusMillis(1), 6)).isEqualTo(6);
        assertThat(scale.ticks(5)).hasSize(5).first().isEqualTo(scale.origin());
        assertThat(scale.x(scale.ticks(5).get(4))).isCloseTo(1010, within(1.0));
    }
}
