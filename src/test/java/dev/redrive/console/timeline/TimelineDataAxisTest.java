package dev.redrive.console.timeline;

import dev.redrive.timeline.BrokenTimeAxis;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The broken axis as the console's attempt timeline builds it from its attempts and DLQ moment. */
class TimelineDataAxisTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    private static TimelineAttempt retried(int attempt, Instant start, Duration backoff) {
        return new TimelineAttempt(attempt, start, start.plusMillis(200), "RETRY_SCHEDULED", "RATE_LIMITED", "429",
                backoff, start.plusMillis(200).plus(backoff));
    }

    @Test
    void theAxisStartsAtTheFirstAttemptAndEndsAtTheDlqMoment() {
        TimelineData data = new TimelineData(List.of(
                retried(1, T0, Duration.ofSeconds(2)),
                new TimelineAttempt(2, T0.plusMillis(2_200), T0.plusMillis(2_400), "DEAD_LETTERED", "PERMISSION", "403",
                        null, null)), T0.plusMillis(2_500));

        BrokenTimeAxis scale = data.axis(10, 1000);

        assertThat(scale.origin()).isEqualTo(T0);
        assertThat(scale.x(T0)).isEqualTo(10);
        assertThat(scale.x(T0.plusMillis(2_500))).isCloseTo(1010, within(0.001));
        assertThat(scale.x(T0.plusMillis(2_200))).isGreaterThan(scale.x(T0.plusMillis(200)));
        assertThat(scale.width(T0, T0.plusMillis(1), 6)).isEqualTo(6);
        assertThat(scale.breaks()).isEmpty();
    }

    @Test
    void evenlySpreadMomentsStayLinear() {
        TimelineData data = new TimelineData(List.of(
                retried(1, T0, Duration.ofMillis(800)), retried(2, T0.plusSeconds(1), Duration.ofMillis(800)),
                retried(3, T0.plusSeconds(2), Duration.ofMillis(800))), null);

        BrokenTimeAxis scale = data.axis(0, 300);

        assertThat(scale.breaks()).isEmpty();
        assertThat(scale.x(T0.plusSeconds(1))).isCloseTo(100, within(0.001));
        assertThat(scale.x(T0.plusSeconds(2))).isCloseTo(200, within(0.001));
    }

    @Test
    void aRedriveAnHourLater_isABreak_andTheAttemptsBeforeItKeepMostOfTheWidth() {
        Instant redrive = T0.plus(Duration.ofHours(1));
        TimelineData data = new TimelineData(List.of(
                retried(1, T0, Duration.ofSeconds(1)), retried(2, T0.plusMillis(1_200), Duration.ofSeconds(1)),
                retried(3, T0.plusMillis(2_400), Duration.ofSeconds(1)),
                new TimelineAttempt(4, T0.plusMillis(3_600), T0.plusMillis(3_800), "DEAD_LETTERED", "RATE_LIMITED", "429",
                        null, null),
                new TimelineAttempt(5, redrive, redrive.plusMillis(300), "SUCCEEDED", null, null, null, null)),
                T0.plusMillis(3_800));

        BrokenTimeAxis scale = data.axis(0, 1000);

        assertThat(scale.breaks()).singleElement().satisfies(gap -> {
            assertThat(gap.from()).isEqualTo(T0.plusMillis(3_800));
            assertThat(gap.to()).isEqualTo(redrive);
            assertThat(gap.length()).isEqualTo(Duration.ofHours(1).minusMillis(3_800));
        });
        assertThat(scale.x(T0.plusMillis(3_800))).as("the first four attempts and the DLQ moment").isGreaterThan(500);
        assertThat(scale.x(T0.plusMillis(1_200)) - scale.x(T0)).as("one backoff").isGreaterThan(100);
        assertThat(scale.x(redrive.plusMillis(300))).isCloseTo(1000, within(0.001));
    }

    @Test
    void twoAttemptsMillisecondsApart_cannotBeSeparated_butTheIdleMinuteAfterThemIsStillBroken() {
        Instant third = T0.plusMillis(2_600);
        Instant redrive = third.plusSeconds(60);
        TimelineData data = new TimelineData(List.of(
                new TimelineAttempt(1, T0, T0.plusMillis(2), "RETRY_SCHEDULED", "TRANSIENT", "500", null, T0.plusMillis(3)),
                new TimelineAttempt(2, T0.plusMillis(3), T0.plusMillis(600), "RETRY_SCHEDULED", "TRANSIENT", "500", null,
                        third),
                new TimelineAttempt(3, third, third.plusMillis(300), "DEAD_LETTERED", "TRANSIENT", "500", null, null),
                new TimelineAttempt(4, redrive, redrive.plusMillis(300), "SUCCEEDED", null, null, null, null)),
                third.plusMillis(300));

        BrokenTimeAxis scale = data.axis(0, 500);

        assertThat(scale.breaks()).extracting(BrokenTimeAxis.Break::to).contains(redrive);
        assertThat(scale.x(third) - scale.x(T0.plusMillis(3))).as("attempts 2 and 3").isGreaterThan(TimelineData.LABEL_SPACING);
    }
}
