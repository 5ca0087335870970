package dev.redrive.worker;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.HeldTool;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two workers whose clocks are 30 s slow and 30 s fast: leases are compared on the database's clock, so the fast one
 * does not take over a lease the slow one still holds (renewed, on a call that outlives it), and the operation is
 * called once.
 */
class ClockSkewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void workersThirtySecondsApart_agreeOnWhenALeaseEnds() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            HeldTool held = HeldTool.before(kit.charge(Duration.ofSeconds(5))).firstCallOnly();
            Clock slow = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-30));
            Clock fast = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(30));
            kit.start(kit.worker("slow-clock", held).clock(slow));
            DispatchEnvelope dispatch = kit.dispatch("skew", "charge", "{\"amount\":3}");
            OperationId id = dispatch.operationId();
            assertThat(held.awaitEntered(Duration.ofSeconds(10))).isTrue();

            kit.start(kit.worker("fast-clock", kit.charge(Duration.ofSeconds(5))).clock(fast));
            for (int i = 0; i < 4; i++) {
                // Duplicates reach the fast worker while the slow one's call runs past its first lease.
                kit.client().publish(dispatch);
                Thread.sleep(WorkerTestKit.LEASE.toMillis());
            }
            assertThat(kit.jdbc().queryOne("SELECT lease_owner || '/' || fencing_token FROM operations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).contains("slow-clock/1");
            held.release();

            kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(10));
            assertThat(kit.callsFor(id)).isEqualTo(1);
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(kit.jdbc().query("SELECT consumer || '/' || fencing_token FROM attempts WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).containsExactly("slow-clock/1");
            assertThat(kit.jdbc().queryOne("SELECT abs(extract(epoch FROM (finished_at - now()))) < 20 FROM attempts "
                    + "WHERE operation_id = ?", row -> row.getBoolean(1), id.value()))
                    .as("records carry the database's time, not the slow clock's").contains(true);
        }
    }
}
