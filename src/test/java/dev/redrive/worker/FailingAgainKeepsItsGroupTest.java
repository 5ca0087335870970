package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.testing.TestDecisions;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A redrive that fails the same way lands in the group it came from: the worker gives up for another reason the second
 * time ("attempt 3 is past the 2 allowed" after "attempt 2 was the last of 2"), which the entry's error keeps, but the
 * group is the tool's failure. A new group would look like a new kind of failure, and notify as one.
 */
class FailingAgainKeepsItsGroupTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ChargeWorkerFixture charging = new ChargeWorkerFixture(ns, "again-worker", Duration.ofSeconds(2),
            worker -> worker.retryPolicy(BackoffRetryPolicy.builder().baseDelay(Duration.ofMillis(50))
                    .maxDelay(Duration.ofMillis(50)).maxAttempts(FailureClass.TRANSIENT, 2).build()));

    @Test
    void aRedriveThatFailsTheSameWay_staysInItsFingerprintGroup() {
        OperationId id = charging.kit().dispatch("again", "charge", "{\"amount\":3,\"fault\":\"transient\"}").operationId();
        charging.kit().awaitStatus(id, "DEAD_LETTERED", Duration.ofSeconds(20));

        assertThat(TestDecisions.of(ns).redrive(DecisionTarget.operation(id.value()), "ana", "try once more")
                .recorded()).isTrue();
        await().atMost(Duration.ofSeconds(20)).until(() -> charging.kit().count(
                "SELECT count(*) FROM dlq_entries WHERE operation_id = ?", id.value()) == 2);

        List<String> errors = charging.kit().jdbc().query("SELECT error_message FROM dlq_entries WHERE operation_id = ? "
                + "ORDER BY id", row -> row.getString(1), id.value());
        assertThat(errors).hasSize(2);
        assertThat(errors.get(0)).contains("was the last of 2 allowed");
        assertThat(errors.get(1)).as("the entry still says why the worker gave up").contains("is past the 2 attempts");
        assertThat(charging.kit().jdbc().query("SELECT DISTINCT error_fingerprint FROM dlq_entries WHERE operation_id = ?",
                row -> row.getString(1), id.value())).hasSize(1);
    }
}
