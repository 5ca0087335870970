package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo tools' lost answers stay lost for a worker whose request timeout is longer than the tools' own stall: they
 * hold the answer past the timeout the worker announces with each call.
 */
class LostAnswerPastRequestTimeoutTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(6);

    @Test
    void requestTimeoutAboveTheToolsStall_answerStillLost_reconciledWithTheEffectRecordedOnce() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            assertThat(kit.tools().stallDuration()).as("the stall alone would answer in time").isLessThan(REQUEST_TIMEOUT);
            kit.start(kit.worker("patient-worker", kit.charge(REQUEST_TIMEOUT)));

            OperationId id = kit.dispatch("lost-late", "charge", "{\"amount\":8,\"fault\":\"timeout_after_apply:1\"}")
                    .operationId();

            kit.awaitStatus(id, "SUCCEEDED", REQUEST_TIMEOUT.plusSeconds(8));
            assertThat(kit.jdbc().query("SELECT outcome || '/' || error_class || '/' || side_effect FROM attempts WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).containsExactly("SUCCEEDED/UNKNOWN_SIDE_EFFECT/APPLIED");
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(kit.callsFor(id)).as("reconciled, not called again").isEqualTo(1);
        }
    }
}
