package dev.redrive.worker.retry;

import dev.redrive.model.FailureClass;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ToolGateTest {
    private final Instant now = Instant.parse("2026-11-30T00:00:00Z");

    @Test
    void budget_admitsTheBurstThenSpacesCallsAtTheRate() {
        ToolGate gate = new ToolGate(Map.of("demo.charge", new ToolGate.ToolBudget(2, 2)));

        assertThat(gate.admit("demo.charge", now)).isEmpty();
        assertThat(gate.admit("demo.charge", now)).isEmpty();
        ToolGate.Closed closed = gate.admit("demo.charge", now).orElseThrow();
        assertThat(closed.until()).isEqualTo(now.plusMillis(500));
        assertThat(closed.because()).isEqualTo(FailureClass.RATE_LIMITED);
        assertThat(gate.admit("demo.charge", now.plusMillis(500))).isEmpty();
        assertThat(gate.admit("other.tool", now)).as("tools without a budget are not limited").isEmpty();
    }

    @Test
    void permitGivenBack_admitsAnotherCall_butTheBurstStaysTheCap() {
        ToolGate gate = new ToolGate(Map.of("demo.charge", new ToolGate.ToolBudget(2, 2)));
        assertThat(gate.admit("demo.charge", now)).isEmpty();
        assertThat(gate.admit("demo.charge", now)).isEmpty();

        gate.giveBack("demo.charge");
        assertThat(gate.admit("demo.charge", now)).as("the call given back").isEmpty();
        assertThat(gate.admit("demo.charge", now)).isPresent();

        gate.giveBack("demo.charge");
        gate.giveBack("demo.charge");
        gate.giveBack("demo.charge");
        assertThat(gate.admit("demo.charge", now)).isEmpty();
        assertThat(gate.admit("demo.charge", now)).isEmpty();
        assertThat(gate.admit("demo.charge", now)).as("no more than the burst").isPresent();
    }

    @Test
    void dependencyDown_closesTheWholeToolUntilTheBreakerReopens() {
        ToolGate gate = new ToolGate(Map.of());
        gate.pause("demo.charge", now.plusSeconds(5), FailureClass.DEPENDENCY_DOWN);

        assertThat(gate.admit("demo.charge", now.plusSeconds(1)))
                .contains(new ToolGate.Closed(now.plusSeconds(5), FailureClass.DEPENDENCY_DOWN));
        assertThat(gate.admit("demo.charge", now.plusSeconds(5))).isEmpty();
    }
}
