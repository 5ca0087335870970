package dev.redrive.worker.retry;

import java.time.Instant;

/**
 * A {@link RetryPolicy}'s answer: retry at {@code nextEligibleAt}, or give up (dead-letter) because of {@code reason}.
 */
public record RetryDecision(boolean retry, Instant nextEligibleAt, String reason) {

    public static RetryDecision retryAt(Instant nextEligibleAt, String reason) {
        return new RetryDecision(true, nextEligibleAt, reason);
    }

    public static RetryDecision giveUp(String reason) {
        return new RetryDecision(false, null, reason);
    }
}
