package dev.redrive.worker.retry;

import dev.redrive.model.FailureClass;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter and a cap, per-class attempt limits, and Retry-After honoured: the delay
 * before attempt {@code n+1} is a uniform random value in {@code [0, min(cap, base * 2^(n-1))]}, raised to the
 * class's minimum delay and to the tool's Retry-After (which wins over the cap). Terminal classes never retry.
 */
public final class BackoffRetryPolicy implements RetryPolicy {
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final Map<FailureClass, Integer> maxAttempts;
    private final Map<FailureClass, Duration> minimumDelay;
    private final RandomGenerator random;

    private BackoffRetryPolicy(Builder builder) {
        this.baseDelay = builder.baseDelay;
        this.maxDelay = builder.maxDelay;
        this.maxAttempts = new EnumMap<>(builder.maxAttempts);
        this.minimumDelay = new EnumMap<>(builder.minimumDelay);
        this.random = builder.random;
    }

    /** The defaults: base 200 ms, cap 60 s; at most 6 attempts for TRANSIENT, 10 for RATE_LIMITED, 8 for
     * DEPENDENCY_DOWN (at least 1 s apart), 4 for UNKNOWN_SIDE_EFFECT. */
    public static Builder builder() {
        return new Builder();
    }

    public static BackoffRetryPolicy defaults() {
        return builder().build();
    }

    @Override
    public RetryDecision decide(FailureClass failureClass, int attempt, Duration retryAfter, Instant now) {
        if (!failureClass.isRetryable()) {
            return RetryDecision.giveUp(failureClass + " is terminal: not retried");
        }
        int limit = maxAttempts.getOrDefault(failureClass, 1);
        if (attempt == limit) {
            return RetryDecision.giveUp("attempt " + attempt + " was the last of " + limit + " allowed for " + failureClass);
        }
        if (attempt > limit) {
            // A redrive runs past the limit (attempt 5 of 4): "the last of 4" would count wrong.
            return RetryDecision.giveUp("attempt " + attempt + " is past the " + limit + " attempts allowed for "
                    + failureClass + ": a redrive runs once and is not retried");
        }
        Duration delay = jitteredBackoff(attempt);
        Duration floor = minimumDelay.getOrDefault(failureClass, Duration.ZERO);
        if (delay.compareTo(floor) < 0) {
            delay = floor;
        }
        if (retryAfter != null && delay.compareTo(retryAfter) < 0) {
            delay = retryAfter;
        }
        return RetryDecision.retryAt(now.plus(delay), failureClass + " on attempt " + attempt + ", retry in "
                + delay.toMillis() + " ms" + (retryAfter == null ? "" : " (Retry-After " + retryAfter.toMillis() + " ms)"));
    }

    private Duration jitteredBackoff(int attempt) {
        long base = baseDelay.toMillis();
        long ceiling = maxDelay.toMillis();
        long exponential = attempt >= 40 ? ceiling : Math.min(ceiling, base << Math.min(attempt - 1, 40));
        return Duration.ofMillis(random.nextLong(exponential + 1));
    }

    /** Configures a {@link BackoffRetryPolicy}. */
    public static final class Builder {
        private Duration baseDelay = Duration.ofMillis(200);
        private Duration maxDelay = Duration.ofSeconds(60);
        private final Map<FailureClass, Integer> maxAttempts = new EnumMap<>(Map.of(
                FailureClass.TRANSIENT, 6,
                FailureClass.RATE_LIMITED, 10,
                FailureClass.DEPENDENCY_DOWN, 8,
                FailureClass.UNKNOWN_SIDE_EFFECT, 4));
        private final Map<FailureClass, Duration> minimumDelay = new EnumMap<>(Map.of(
                FailureClass.DEPENDENCY_DOWN, Duration.ofSeconds(1)));
        private RandomGenerator random = RandomGenerator.getDefault();

        private Builder() {
        }

        public Builder baseDelay(Duration baseDelay) {
            this.baseDelay = requirePositive(baseDelay, "baseDelay");
            return this;
        }

        public Builder maxDelay(Duration maxDelay) {
            this.maxDelay = requirePositive(maxDelay, "maxDelay");
            return this;
        }

        /** At most {@code attempts} attempts in all for failures of this class; terminal classes ignore it. */
        public Builder maxAttempts(FailureClass failureClass, int attempts) {
            if (attempts < 1) {
                throw new IllegalArgumentException("maxAttempts for " + failureClass + " must be 1 or more, got " + attempts);
            }
            maxAttempts.put(failureClass, attempts);
            return this;
        }

        /** Never retry a failure of this class sooner than {@code delay}. */
        public Builder minimumDelay(FailureClass failureClass, Duration delay) {
            minimumDelay.put(failureClass, Objects.requireNonNull(delay, "delay"));
            return this;
        }

        /** The source of jitter; tests pass a seeded one. */
        public Builder random(RandomGenerator random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        public BackoffRetryPolicy build() {
            if (maxDelay.compareTo(baseDelay) < 0) {
                throw new IllegalArgumentException("maxDelay " + maxDelay + " is shorter than baseDelay " + baseDelay);
            }
            return new BackoffRetryPolicy(this);
        }

        private static Duration requirePositive(Duration value, String name) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + value);
            }
            return value;
        }
    }
}
