package dev.redrive.demo.tools;

import java.util.OptionalInt;

/**
 * One fault of a payload's fault list: what fails, for how many calls of an idempotency key ({@code count} empty =
 * every call), and for rate limits the {@code Retry-After} seconds.
 */
public record Fault(FaultKind kind, OptionalInt count, int retryAfterSeconds) {

    public Fault {
        if (count.isPresent() && count.getAsInt() < 1) {
            throw new InvalidFaultException("a fault count must be 1 or more, got " + count.getAsInt() + " for " + kind.wireName());
        }
        if (retryAfterSeconds < 0) {
            throw new InvalidFaultException("Retry-After must be 0 or more seconds, got " + retryAfterSeconds);
        }
    }

    public boolean unlimited() {
        return count.isEmpty();
    }
}
