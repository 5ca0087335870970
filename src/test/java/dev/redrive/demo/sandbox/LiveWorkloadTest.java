package dev.redrive.demo.sandbox;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sandbox's trickle of new work stops feeding the DLQ once it holds as many open entries as it may, at the rate
 * an operator set.
 */
class LiveWorkloadTest {
    private static boolean deadLetters(PlannedOperation operation) {
        return LiveWorkload.DEAD_LETTERING.stream().anyMatch(fault -> operation.payload().contains("\"fault\":\"" + fault + "\""));
    }

    @Test
    void underItsBound_someWorkDeadLetters_atItsBound_none() {
        List<PlannedOperation> sent = new ArrayList<>();
        AtomicLong open = new AtomicLong(10);
        LiveWorkload workload = new LiveWorkload(sent::add, "live-test", open::get, 35, new Random(7));

        for (int tick = 0; tick < 600; tick++) {
            workload.tick(2);
        }
        long underBound = sent.stream().filter(LiveWorkloadTest::deadLetters).count();
        assertThat(underBound).as("an hour at the old pace, under the bound").isBetween(20L, 120L);

        sent.clear();
        open.set(35);
        for (int tick = 0; tick < 1200; tick++) {
            workload.tick(2);
        }
        assertThat(sent).hasSize(2400).noneMatch(LiveWorkloadTest::deadLetters);
    }

    @Test
    void aTrickleOfPerMinute_sendsThatManyAMinute_neverMoreOftenThanEveryThreeSeconds() {
        for (int perMinute : new int[]{1, 5, 20, 40, 100, 600}) {
            Trickle trickle = new Trickle(perMinute);
            long roundsPerMinute = java.time.Duration.ofMinutes(1).dividedBy(trickle.interval());
            assertThat(roundsPerMinute * trickle.perRound()).as("%d per minute", perMinute)
                    .isBetween((long) Math.floor(perMinute * 0.9), (long) Math.ceil(perMinute * 1.1));
            assertThat(trickle.interval()).isGreaterThanOrEqualTo(java.time.Duration.ofSeconds(3));
        }
        assertThat(Trickle.DEFAULT.interval()).isEqualTo(java.time.Duration.ofSeconds(3));
        assertThat(Trickle.DEFAULT.perRound()).as("the pace the sandbox always had").isEqualTo(2);
        assertThat(new Trickle(0).off()).isTrue();
        assertThatThrownBy(() -> new Trickle(-1)).hasMessage("--trickle must be a number of operations per minute "
                + "from 0 (none) to 600, got -1");
    }
}
