package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.tool.HttpTool;
import dev.redrive.worker.tool.Reconciliation;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.ToolFailure;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.models.stream.PendingMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class LeaseRenewalTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration CALL = WorkerTestKit.LEASE.multipliedBy(3);

    /** demo.charge, reached only after {@link #CALL}; counts the calls made through it by every worker. */
    private static final class SlowCharge implements Tool {
        private final HttpTool charge;
        private final AtomicInteger calls;
        private final CountDownLatch entered;

        SlowCharge(HttpTool charge, AtomicInteger calls, CountDownLatch entered) {
            this.charge = charge;
            this.calls = calls;
            this.entered = entered;
        }

        @Override
        public String name() {
            return charge.name();
        }

        @Override
        public String schemaVersion() {
            return charge.schemaVersion();
        }

        @Override
        public String execute(ToolCall call) throws ToolFailure {
            calls.incrementAndGet();
            entered.countDown();
            try {
                Thread.sleep(CALL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return charge.execute(call);
        }

        @Override
        public Reconciliation reconcile(String idempotencyKey) {
            return charge.reconcile(idempotencyKey);
        }
    }

    @Test
    void toolCallLastingThreeLeases_commitsOnce_entryDeliveredOnce_noOtherWorkerTakesOver() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            AtomicInteger calls = new AtomicInteger();
            CountDownLatch entered = new CountDownLatch(1);
            kit.start(kit.worker("renewing-a", new SlowCharge(kit.charge(Duration.ofSeconds(5)), calls, entered)));
            OperationId id = kit.dispatch("renewal", "charge", "{\"amount\":7}").operationId();
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            kit.start(kit.worker("watching-b", new SlowCharge(kit.charge(Duration.ofSeconds(5)), calls,
                    new CountDownLatch(1))));

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

            kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(20));
            await().atMost(Duration.ofSeconds(5)).until(() -> kit.pendingEntries() == 0);

            assertThat(calls).as("tool calls through either worker").hasValue(1);
            assertThat(kit.callsFor(id)).isEqualTo(1);
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(kit.jdbc().query("SELECT consumer || '/' || fencing_token || '/' || delivery_count FROM attempts"
                    + " WHERE operation_id = ?", row -> row.getString(1), id.value())).containsExactly("renewing-a/1/1");
            assertThat(kit.count("SELECT count(*) FROM reconciliations WHERE operation_id = ?", id.value())).isZero();
            assertThat(kit.count("SELECT count(*) FROM audit_log WHERE operation_id = ?", id.value())).isZero();
        }
    }
}
