package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.HeldTool;
import dev.redrive.testing.TestNamespace;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.models.stream.PendingMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class LeaseRenewalTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    /** How long the call is held. */
    private static final Duration CALL = WorkerTestKit.LEASE.multipliedBy(3);

    @Test
    void toolCallLastingThreeLeases_commitsOnce_entryDeliveredOnce_noOtherWorkerTakesOver() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            HeldTool callOfA = HeldTool.before(kit.charge(Duration.ofSeconds(5)));
            HeldTool callOfB = HeldTool.before(kit.charge(Duration.ofSeconds(5)));
            kit.start(kit.worker("renewing-a", callOfA));
            OperationId id = kit.dispatch("renewal", "charge", "{\"amount\":7}").operationId();
            assertThat(callOfA.awaitEntered(Duration.ofSeconds(10))).isTrue();
            kit.start(kit.worker("watching-b", callOfB));

            // The call is held for most of three leases: the lease must be renewed past its first expiry and its second.
            Thread.sleep(CALL.minus(WorkerTestKit.LEASE.dividedBy(2)).toMillis());
            List<PendingMessage> pending = ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers",
                    Range.unbounded(), Limit.from(10));
            assertThat(pending).as("the entry, late in the call").singleElement().satisfies(entry -> {
                assertThat(entry.getConsumer()).isEqualTo("renewing-a");
                assertThat(entry.getRedeliveryCount()).isEqualTo(1);
            });
            assertThat(kit.count("SELECT count(*) FROM operations WHERE operation_id = ? AND lease_owner = ?"
                    + " AND fencing_token = 1 AND lease_expires_at > now()", id.value(), "renewing-a"))
                    .as("lease still live and first-claimed, long after its first expiry").isEqualTo(1);

            callOfA.release();
            kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(20));
            await().atMost(Duration.ofSeconds(5)).until(() -> kit.pendingEntries() == 0);

            assertThat(callOfA.calls() + callOfB.calls()).as("tool calls through either worker").isEqualTo(1);
            assertThat(kit.callsFor(id)).isEqualTo(1);
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(kit.jdbc().query("SELECT consumer || '/' || fencing_token || '/' || delivery_count FROM attempts"
                    + " WHERE operation_id = ?", row -> row.getString(1), id.value())).containsExactly("renewing-a/1/1");
            assertThat(kit.count("SELECT count(*) FROM reconciliations WHERE operation_id = ?", id.value())).isZero();
            assertThat(kit.count("SELECT count(*) FROM audit_log WHERE operation_id = ?", id.value())).isZero();
        }
    }
}
