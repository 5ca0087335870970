package dev.redrive.worker.retry;

import dev.redrive.model.FailureClass;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffRetryPolicyTest {
    private final Instant now = Instant.parse("2026-11-30T00:00:00Z");

    @Test
    void terminalClasses_neverRetry() {
        BackoffRetryPolicy policy = BackoffRetryPolicy.defaults();

        assertThat(policy.decide(FailureClass.INVALID_INPUT, 1, null, now).retry()).isFalse();
        assertThat(policy.decide(FailureClass.PERMISSION, 1, null, now).retry()).isFalse();
    }

    @Test
    void delays_areFullJitterUnderAnExponentialCeilingAndTheCap() {
        BackoffRetryPolicy policy = BackoffRetryPolicy.builder().baseDelay(Duration.ofMillis(100))
                .maxDelay(Duration.ofSeconds(1)).maxAttempts(FailureClass.TRANSIENT, 50).random(new Random(1)).build();

        for (int attempt = 1; attempt < 20; attempt++) {
            long ceiling = Math.min(1000, 100L << (attempt - 1));
            for (int sample = 0; sample < 50; sample++) {
                RetryDecision decision = policy.decide(FailureClass.TRANSIENT, attempt, null, now);
                assertThat(Duration.between(now, decision.nextEligibleAt()).toMillis()).isBetween(0L, ceiling);
            }
        }
    }

    @Test
    void retryAfter_isHonouredEvenAboveTheCap() {
        BackoffRetryPolicy policy = BackoffRetryPolicy.builder().maxDelay(Duration.ofSeconds(1)).build();

        RetryDecision decision = policy.decide(FailureClass.RATE_LIMITED, 1, Duration.ofSeconds(30), now);

        assertThat(decision.nextEligibleAt()).isAfterOrEqualTo(now.plusSeconds(30));
    }

    @Test
    void perClassAttemptLimit_sendsExhaustedRetriesToTheDlq() {
        BackoffRetryPolicy policy = BackoffRetryPolicy.builder().maxAttempts(FailureClass.TRANSIENT, 3).build();

        assertThat(policy.decide(FailureClass.TRANSIENT, 2, null, now).retry()).isTrue();
        RetryDecision exhausted = policy.decide(FailureClass.TRANSIENT, 3, null, now);
        assertThat(exhausted.retry()).isFalse();
        assertThat(exhausted.reason()).contains("3 allowed for TRANSIENT");
    }

    @Test
    void aRedrivenAttemptPastTheLimit_isSaidToBePastIt_notTheLastOfFewerAttempts() {
        BackoffRetryPolicy policy = BackoffRetryPolicy.builder().maxAttempts(FailureClass.TRANSIENT, 4).build();

        RetryDecision redriven = policy.decide(FailureClass.TRANSIENT, 5, null, now);

        assertThat(redriven.retry()).isFalse();
        assertThat(redriven.reason()).isEqualTo("attempt 5 is past the 4 attempts allowed for TRANSIENT: "
                + "a redrive runs once and is not retried").doesNotContain("last of");
    }

    @Test
    void dependencyDown_waitsAtLeastItsMinimumDelay() {
        BackoffRetryPolicy policy = BackoffRetryPolicy.builder().random(new Random(3)).build();

        RetryDecision decision = policy.decide(FailureClass.DEPENDENCY_DOWN, 1, null, now);

        assertThat(decision.nextEligibleAt()).isAfterOrEqualTo(now.plusSeconds(1));
    }
}
