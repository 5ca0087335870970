package dev.redrive.worker.tool;

import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.demo.tools.EffectPolicy;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A call carries the end of its worker's lease as {@code Call-Deadline}: one that reaches the demo tool later (sent by
 * a worker paused past its lease, whose operation another may have looked up and called meanwhile) is refused with 408
 * and nothing done, which the worker takes as a transient failure. The tool judges the deadline when it would act,
 * under the key's lock, so a call that arrived in time but waited for the lock past its deadline is refused too.
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
                    + "WHERE idempotency_key IN ('late', 'in-time') ORDER BY seq", row -> row.getString(1)))
                    .containsExactly("late/408", "in-time/200");
            assertThat(ns.database().jdbc().query("SELECT idempotency_key FROM demo_tool_effects "
                    + "WHERE idempotency_key IN ('late', 'in-time')", row -> row.getString(1))).containsExactly("in-time");
        }
    }

    @Test
    void aCallThatArrivedInTime_butWaitedForItsKeyPastItsDeadline_isRefusedWithoutActing() throws Exception {
        try (DemoToolServer tools = DemoToolServer.start(ns.database(), Clock.systemUTC(), EffectPolicy.EVERY_CALL)) {
            HttpTool charge = HttpTool.builder("demo.charge", "1", tools.chargeEndpoint())
                    .requestTimeout(Duration.ofSeconds(10)).build();
            // Another worker's look-up of the key holds the key's lock past the call's deadline, as a takeover that
            // looks the key up while a paused worker's request is on its way does.
            CountDownLatch locked = new CountDownLatch(1);
            Thread lookUp = new Thread(() -> ns.database().jdbc().inTransaction(() -> {
                ns.database().jdbc().query("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", row -> 1,
                        "demo-tool:waited");
                locked.countDown();
                sleep(1500);
                return null;
            }));
            lookUp.start();
            assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> charge.execute(call("waited", Instant.now().plusMillis(500))))
                    .isInstanceOf(TransientFailure.class).hasMessageContaining("deadline");
            lookUp.join();

            assertThat(ns.database().jdbc().query("SELECT http_status FROM demo_tool_calls WHERE idempotency_key = "
                    + "'waited'", row -> row.getInt(1))).containsExactly(408);
            assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key = "
                    + "'waited'")).isZero();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ToolCall call(String key, Instant deadline) {
        return new ToolCall("r:n:0", key, 1, "{\"amount\":1}", null, null, deadline);
    }
}
