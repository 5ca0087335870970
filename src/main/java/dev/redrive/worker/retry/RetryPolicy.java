package dev.redrive.worker.retry;

import dev.redrive.model.FailureClass;

import java.time.Duration;
import java.time.Instant;

/**
 * Decides, after a failed attempt, whether the operation is tried again and when. The worker calls it for every
 * classified failure; {@link BackoffRetryPolicy} is the default.
 */
public interface RetryPolicy {

    /**
     * @param failureClass the class of the failure (terminal classes must give up)
     * @param attempt      the attempt that just failed, 1 for the first
     * @param retryAfter   how long the tool asked to be left alone, or null
     * @param now          when the attempt failed
     */
    RetryDecision decide(FailureClass failureClass, int attempt, Duration retryAfter, Instant now);
}
