package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.HttpTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A DEPENDENCY_DOWN one worker sees pauses the tool for every worker of the namespace, not only for itself. */
class SharedToolPauseTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration OUTAGE = Duration.ofSeconds(6);

    @Test
    void aToolPausedByOneWorker_isNotCalledByAnotherUntilThePauseEnds() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            HttpTool charge = kit.charge(Duration.ofSeconds(2));
            Worker first = kit.start(kit.worker("first", charge).retryPolicy(BackoffRetryPolicy.builder()
                    .minimumDelay(FailureClass.DEPENDENCY_DOWN, OUTAGE).build()));
            OperationId down = kit.dispatch("outage", "charge", "{\"amount\":3,\"fault\":\"dependency_down:1\"}")
                    .operationId();
            kit.awaitStatus(down, "RETRY_SCHEDULED", Duration.ofSeconds(10));
            Instant pausedUntil = Instant.ofEpochMilli(Long.parseLong(
                    ns.redis().sync().hget(ns.redis().keys().toolPauses(), "demo.charge").split(" ")[0]));
            assertThat(ns.redis().sync().hget(ns.redis().keys().toolPauses(), "demo.charge")).endsWith(" DEPENDENCY_DOWN");
            first.shutdown().get(10, TimeUnit.SECONDS);

            // A worker that never saw the failure picks up new work for the same tool.
            kit.start(kit.worker("second", charge));
            OperationId fresh = kit.dispatch("after-outage", "charge", "{\"amount\":4}").operationId();

            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> kit.callsFor(fresh) == 0);
            kit.awaitStatus(fresh, "SUCCEEDED", Duration.ofSeconds(20));
            kit.awaitStatus(down, "SUCCEEDED", Duration.ofSeconds(20));
            assertThat(kit.callsFor(fresh)).isEqualTo(1);
            Instant called = kit.jdbc().queryOne("SELECT received_at FROM demo_tool_calls WHERE idempotency_key = ?",
                    row -> row.getTimestamp(1).toInstant(), fresh.idempotencyKey()).orElseThrow();
            assertThat(called).as("called only once the pause ended").isAfterOrEqualTo(pausedUntil.minusMillis(50));
            assertThat(kit.count("SELECT attempt FROM operations WHERE operation_id = ?", fresh.value()))
                    .as("the deferral spent no attempt").isEqualTo(1);
        }
    }
}
