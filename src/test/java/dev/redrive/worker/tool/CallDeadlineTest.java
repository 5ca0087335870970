package dev.redrive.worker.tool;

import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.demo.tools.EffectPolicy;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A call carries the end of its worker's lease as {@code Call-Deadline}: one that reaches the demo tool later (sent by
 * a worker paused past its lease, whose operation another may have looked up and called meanwhile) is refused with 408
 * and nothing done, which the worker takes as a transient failure.
 */
class CallDeadlineTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void aCallArrivingAfterItsDeadline_isRefusedWithoutActing_oneBeforeItActs() throws Exception {
        try (DemoToolServer tools = DemoToolServer.start(ns.database(), Clock.systemUTC(), EffectPolicy.EVERY_CALL)) {
            HttpTool charge = HttpTool.builder("demo.charge", "1", tools.chargeEndpoint())
                    .requestTimeout(Duration.ofSeconds(5)).build();

            assertThatThrownBy(() -> charge.execute(call("late", Instant.now().minusSeconds(1))))
                    .isInstanceOf(TransientFailure.class).hasMessageContaining("deadline");
            assertThat(charge.execute(call("in-time", Instant.now().plusSeconds(30)))).contains("in-time");

            assertThat(ns.database().jdbc().query("SELECT idempotency_key || '/' || http_status FROM demo_tool_calls "
                    + "ORDER BY seq", row -> row.getString(1))).containsExactly("late/408", "in-time/200");
            assertThat(ns.database().jdbc().query("SELECT idempotency_key FROM demo_tool_effects",
                    row -> row.getString(1))).containsExactly("in-time");
        }
    }

    private static ToolCall call(String key, Instant deadline) {
        return new ToolCall("r:n:0", key, 1, "{\"amount\":1}", null, null, deadline);
    }
}
