package dev.redrive.demo.tools;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FaultPlanTest {

    @Test
    void countedFaults_playOneAfterTheOther_thenCallsSucceed() {
        FaultPlan plan = FaultPlan.parse("rate_limit:2:7;transient:1");

        assertThat(plan.forCall(1)).hasValueSatisfying(f -> {
            assertThat(f.kind()).isEqualTo(FaultKind.RATE_LIMIT);
            assertThat(f.retryAfterSeconds()).isEqualTo(7);
        });
        assertThat(plan.forCall(2)).map(Fault::kind).contains(FaultKind.RATE_LIMIT);
        assertThat(plan.forCall(3)).map(Fault::kind).contains(FaultKind.TRANSIENT);
        assertThat(plan.forCall(4)).isEmpty();
    }

    @Test
    void faultWithoutCount_failsEveryCallFromItsTurnOn() {
        FaultPlan plan = FaultPlan.parse("transient:1;invalid");

        assertThat(plan.forCall(1)).map(Fault::kind).contains(FaultKind.TRANSIENT);
        assertThat(plan.forCall(2)).map(Fault::kind).contains(FaultKind.INVALID);
        assertThat(plan.forCall(50)).map(Fault::kind).contains(FaultKind.INVALID);
    }

    @Test
    void lookupDown_countsLookupsNotCharges() {
        FaultPlan plan = FaultPlan.parse("timeout_after_apply:1;lookup_down:2");

        assertThat(plan.forCall(1)).map(Fault::kind).contains(FaultKind.TIMEOUT_AFTER_APPLY);
        assertThat(plan.forCall(2)).isEmpty();
        assertThat(plan.lookupDown(1)).isTrue();
        assertThat(plan.lookupDown(2)).isTrue();
        assertThat(plan.lookupDown(3)).isFalse();
        assertThat(FaultPlan.parse("lookup_down").lookupDown(99)).isTrue();
    }

    @Test
    void rateLimitWithoutRetryAfter_defaultsToOneSecond() {
        assertThat(FaultPlan.parse("rate_limit:1").forCall(1)).map(Fault::retryAfterSeconds).contains(1);
    }

    @Test
    void noFault_meansEveryCallSucceeds() {
        assertThat(FaultPlan.parse(null).forCall(1)).isEmpty();
        assertThat(FaultPlan.parse(" ").forCall(1)).isEmpty();
        assertThat(FaultPlan.parse("").lookupDown(1)).isFalse();
    }

    @Test
    void badFaults_areRefusedWithAMessageNamingThem() {
        assertThatThrownBy(() -> FaultPlan.parse("meteor_strike:1"))
                .isInstanceOf(InvalidFaultException.class).hasMessageContaining("unknown fault 'meteor_strike'");
        assertThatThrownBy(() -> FaultPlan.parse("transient:two"))
                .isInstanceOf(InvalidFaultException.class).hasMessageContaining("'two'");
        assertThatThrownBy(() -> FaultPlan.parse("transient:0"))
                .isInstanceOf(InvalidFaultException.class).hasMessageContaining("1 or more");
        assertThatThrownBy(() -> FaultPlan.parse("forbidden:1:2"))
                .isInstanceOf(InvalidFaultException.class).hasMessageContaining("too many parts");
        assertThatThrownBy(() -> FaultPlan.parse("lookup_down:1;lookup_down:2"))
                .isInstanceOf(InvalidFaultException.class).hasMessageContaining("twice");
    }
}
