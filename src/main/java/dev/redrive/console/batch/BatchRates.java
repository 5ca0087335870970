package dev.redrive.console.batch;

import dev.redrive.triage.decision.BatchState;
import dev.redrive.triage.decision.DurableBatch;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * How fast each batch moves, from the progress its row showed at successive reads, whichever process runs it: the
 * items taken between two reads over the time between them, smoothed so that one slow chunk does not swing the time
 * left. A batch that does not run has no rate.
 */
final class BatchRates {
    /** The weight of the newest measurement. */
    private static final double SMOOTHING = 0.5;

    private record Sample(long done, Instant at, double rate) {
    }

    private final Map<Long, Sample> last = new HashMap<>();

    /** Takes in what the batch's row says at {@code at}; returns its items per second, when it can be told. */
    OptionalDouble observe(DurableBatch batch, Instant at) {
        Sample before = last.get(batch.id());
        if (batch.state() != BatchState.RUNNING) {
            last.remove(batch.id());
            return OptionalDouble.empty();
        }
        if (before == null || batch.done() < before.done()) {
            last.put(batch.id(), new Sample(batch.done(), at, Double.NaN));
            return OptionalDouble.empty();
        }
        long millis = Duration.between(before.at(), at).toMillis();
        if (millis <= 0) {
            return Double.isNaN(before.rate()) ? OptionalDouble.empty() : OptionalDouble.of(before.rate());
        }
        double measured = (batch.done() - before.done()) * 1000.0 / millis;
        double rate = Double.isNaN(before.rate()) ? measured : SMOOTHING * measured + (1 - SMOOTHING) * before.rate();
        last.put(batch.id(), new Sample(batch.done(), at, rate));
        return OptionalDouble.of(rate);
    }
}
