package dev.redrive.console.batch;

import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * How fast each batch moves, from the progress its row showed at successive reads, whichever process runs it: the
 * items taken over the last {@link #WINDOW} of reads. Measured between two reads alone, the rate of a paced batch
 * swung with where its chunks fell between the reads (a batch at 1 item/s read as 2, then 0.6), and the time left went
 * up while it worked. A batch never goes faster than the pace it was given, so the rate is capped there. A batch that
 * does not run has no rate.
 */
final class BatchRates {
    /** How far back the reads a rate is measured over go. */
    static final Duration WINDOW = Duration.ofSeconds(10);

    private record Sample(long done, Instant at) {
    }

    private final Map<Long, Deque<Sample>> samples = new HashMap<>();

    /** Takes in what the batch's row says at {@code at}; returns its items per second, when it can be told. */
    OptionalDouble observe(DurableBatch batch, Instant at) {
        if (batch.state() != BatchState.RUNNING) {
            samples.remove(batch.id());
            return OptionalDouble.empty();
        }
        Deque<Sample> seen = samples.computeIfAbsent(batch.id(), id -> new ArrayDeque<>());
        if (!seen.isEmpty() && (batch.done() < seen.peekLast().done() || at.isBefore(seen.peekLast().at()))) {
            seen.clear();
        }
        seen.addLast(new Sample(batch.done(), at));
        // Keep the newest read older than the window too: the window is then always covered from its start.
        while (seen.size() > 2 && !seen.stream().skip(1).findFirst().orElseThrow().at().isAfter(at.minus(WINDOW))) {
            seen.removeFirst();
        }
        Sample oldest = seen.peekFirst();
        long millis = Duration.between(oldest.at(), at).toMillis();
        if (seen.size() < 2 || millis <= 0) {
            return OptionalDouble.empty();
        }
        double measured = (batch.done() - oldest.done()) * 1000.0 / millis;
        return OptionalDouble.of(batch.itemsPerSecond() > 0 ? Math.min(measured, batch.itemsPerSecond()) : measured);
    }
}
