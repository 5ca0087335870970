package dev.redrive.triage.decision;

import java.time.Duration;

/** Waits; tests pass one that only records how long it was asked to wait. */
@FunctionalInterface
public interface Sleeper {
    Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);

    void sleep(Duration duration) throws InterruptedException;
}
