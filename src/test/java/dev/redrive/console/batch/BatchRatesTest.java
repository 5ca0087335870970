package dev.redrive.console.batch;

import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.durable.BatchSelection;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatch;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

/** The rate and time left the batches list shows, from reads that fall anywhere between a paced batch's chunks. */
class BatchRatesTest {
    private static final Instant START = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void aBatchPacedAtOneItemASecond_readsAsAtMostOne_andItsTimeLeftNeverGoesUp() {
        BatchRates rates = new BatchRates();
        List<Double> secondsLeft = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        // The list reads every 1.5 s; the batch takes an item each 1.05 s (its pace of 1/s and each chunk's commit).
        for (int read = 0; read < 16; read++) {
            Duration since = Duration.ofMillis(1500L * read);
            long done = since.toMillis() / 1050;
            OptionalDouble rate = rates.observe(batch(done, 24, 1, BatchState.RUNNING), START.plus(since));
            if (rate.isPresent()) {
                measured.add(rate.getAsDouble());
                secondsLeft.add(DurableBatch.secondsLeft(24 - done, rate.getAsDouble()).orElseThrow());
            }
        }

        assertThat(measured).hasSize(15).allSatisfy(rate -> assertThat(rate).isBetween(0.6, 1.0));
        assertThat(measured.subList(6, measured.size())).allSatisfy(rate -> assertThat(rate).isBetween(0.85, 1.0));
        for (int i = 7; i < secondsLeft.size(); i++) {
            assertThat(secondsLeft.get(i)).as("time left at read %d", i).isLessThanOrEqualTo(secondsLeft.get(i - 1));
        }
    }

    @Test
    void anUnpacedBatch_readsAsItGoes_aStoppedOneHasNoRate_andAResumeStartsAfresh() {
        BatchRates rates = new BatchRates();
        assertThat(rates.observe(batch(0, 10_000, 0, BatchState.RUNNING), START)).isEmpty();
        assertThat(rates.observe(batch(2_000, 10_000, 0, BatchState.RUNNING), START.plusSeconds(1)))
                .hasValueCloseTo(2_000.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(rates.observe(batch(2_000, 10_000, 0, BatchState.STOPPED), START.plusSeconds(2))).isEmpty();
        assertThat(rates.observe(batch(2_000, 10_000, 0, BatchState.RUNNING), START.plusSeconds(60))).isEmpty();
    }

    private static DurableBatch batch(long done, long total, double itemsPerSecond, BatchState state) {
        return new DurableBatch(7, DecisionKind.REDRIVE, BatchSelection.group("fp"), "alice", "alice", "why", null,
                itemsPerSecond, 1, state, null, total, done, done, 0, 0, 0, "here", START.plusSeconds(3600), null,
                START, START, null);
    }
}
