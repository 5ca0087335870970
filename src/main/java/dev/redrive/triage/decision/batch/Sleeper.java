package dev.redrive.triage.decision.batch;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits; tests pass one that only records how long it was asked to wait. */
@FunctionalInterface
public interface Sleeper {
    Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);

    void sleep(Duration duration) throws InterruptedException;

    /**
     * Sleeps as this one does, a {@code slice} at a time, and returns early once {@code stop} says so: a long pause
     * between paced chunks does not hold up a batch asked to stop.
     */
    default Sleeper until(BooleanSupplier stop, Duration slice) {
        return duration -> {
            Duration left = duration;
            while (left.compareTo(Duration.ZERO) > 0 && !stop.getAsBoolean()) {
                Duration step = left.compareTo(slice) < 0 ? left : slice;
                sleep(step);
                left = left.minus(step);
            }
        };
    }
}
