package dev.redrive.triage.decision.batch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Spaces items out to at most {@code itemsPerSecond}, so a batch redrive does not flood a dependency that has just
 * recovered. Slot n is due at start + n / rate; a slow item does not earn a burst afterwards beyond its own slot.
 */
public final class Pacer {
    private final Duration interval;
    private final Clock clock;
    private final Sleeper sleeper;
    private Instant next;

    /** @param itemsPerSecond 0 or less = no limit */
    public Pacer(double itemsPerSecond, Clock clock, Sleeper sleeper) {
        this.interval = itemsPerSecond <= 0 ? Duration.ZERO : Duration.ofNanos((long) (1_000_000_000L / itemsPerSecond));
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** Returns when the next {@code items} may go, which then take as many slots. */
    void awaitSlots(int items) throws InterruptedException {
        Instant now = clock.instant();
        if (next != null && now.isBefore(next)) {
            sleeper.sleep(Duration.between(now, next));
            now = next;
        }
        next = now.plus(interval.multipliedBy(items));
    }
}
