package dev.redrive.worker;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RedisLossSweepTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void operationsWhoseDispatchOrRetryRedisLost_arePublishedAgainAfterTheGracePeriod() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            OperationRegistry registry = new OperationRegistry(kit.jdbc());
            OperationId lostDispatch = new OperationId("lost", "dispatch", 0);
            OperationId lostRetry = new OperationId("lost", "retry", 0);
            Instant now = Instant.now();
            registry.record(kit.client().newDispatch(lostDispatch, "demo.charge", "1", "{\"amount\":1}", null, null, null),
                    OperationStatus.PENDING);
            DispatchEnvelope retry = kit.client().newDispatch(lostRetry, "demo.charge", "1", "{\"amount\":2}", null, null, null)
                    .retry(now, FailureClass.TRANSIENT, now);
            registry.record(retry, OperationStatus.RETRY_SCHEDULED);

            kit.start(kit.worker("sweeper", kit.charge(Duration.ofSeconds(5))).sweepGrace(Duration.ofMillis(400)));

            kit.awaitStatus(lostDispatch, "SUCCEEDED", Duration.ofSeconds(10));
            kit.awaitStatus(lostRetry, "SUCCEEDED", Duration.ofSeconds(10));
            assertThat(kit.effectsFor(lostDispatch)).isEqualTo(1);
            assertThat(kit.effectsFor(lostRetry)).isEqualTo(1);
            assertThat(kit.jdbc().queryOne("SELECT attempt FROM attempts WHERE operation_id = ?", row -> row.getInt(1),
                    lostRetry.value())).as("the retry keeps its attempt").contains(2);
        }
    }
}
