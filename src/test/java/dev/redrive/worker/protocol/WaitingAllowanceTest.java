package dev.redrive.worker.protocol;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class WaitingAllowanceTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final long FAST = Duration.ofMillis(1).toNanos();

    @Test
    void beforeAnyCall_aQuarterOfThePoolMayWait() {
        WaitingAllowance allowance = new WaitingAllowance(8, 64, LEASE);

        assertThat(allowance.allowed()).isEqualTo(2);
    }

    @Test
    void callsThatAnswerAtOnce_letAWholeBatchWait() {
        WaitingAllowance allowance = new WaitingAllowance(8, 64, LEASE);

        observe(allowance, FAST, 500);

        assertThat(allowance.allowed()).isEqualTo(64);
    }

    @Test
    void oneCallAsSlowAsAShareOfTheLease_shortensTheQueueAtOnce_andFastCallsWinItBackGradually() {
        WaitingAllowance allowance = new WaitingAllowance(8, 64, LEASE);
        observe(allowance, FAST, 500);

        allowance.observed(Duration.ofSeconds(5).toNanos());
        assertThat(allowance.allowed()).as("right after a 5 s call").isEqualTo(4);

        observe(allowance, FAST, 32);
        int after32 = allowance.allowed();
        assertThat(after32).as("a thirty-second off per call").isGreaterThan(4).isLessThan(64);
        observe(allowance, FAST, 500);
        assertThat(allowance.allowed()).isEqualTo(64);
    }

    @Test
    void aPoolOfOne_stillLetsOneWait() {
        WaitingAllowance allowance = new WaitingAllowance(1, 64, LEASE);

        allowance.observed(LEASE.toNanos());

        assertThat(allowance.allowed()).isEqualTo(1);
    }

    private static void observe(WaitingAllowance allowance, long nanos, int calls) {
        for (int i = 0; i < calls; i++) {
            allowance.observed(nanos);
        }
    }
}
