package dev.redrive.demo.sandbox;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The sandbox's trickle of new work stops feeding the DLQ once it holds as many open entries as it may. */
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
}
