package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Each failure class handled as the seed's table says, with the demo tools' faults over real HTTP. */
class FailureClassesTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ChargeWorkerFixture charging = new ChargeWorkerFixture(ns, "classes-worker", Duration.ofMillis(1500));

    @Test
    void answerLostAfterTheEffect_reconciledAsApplied_succeedsWithTheStoredResult() {
        OperationId id = chargeEndingAs("lost-after", "timeout_after_apply:1", "SUCCEEDED");

        assertThat(charging.kit().effectsFor(id)).isEqualTo(1);
        assertThat(charging.kit().jdbc().queryOne("SELECT side_effect || ' ' || (result->>'idempotency_key') FROM operations WHERE operation_id = ?",
                row -> row.getString(1), id.value())).contains("APPLIED " + id.idempotencyKey());
        assertThat(charging.kit().jdbc().query("SELECT outcome || '/' || source FROM reconciliations WHERE operation_id = ?",
                row -> row.getString(1), id.value())).containsExactly("APPLIED/TOOL");
        assertThat(charging.kit().jdbc().queryOne("SELECT outcome || '/' || error_class || '/' || side_effect FROM attempts WHERE operation_id = ?",
                row -> row.getString(1), id.value())).contains("SUCCEEDED/UNKNOWN_SIDE_EFFECT/APPLIED");
    }

    @Test
    void answerLostBeforeTheEffect_reconciledAsNotApplied_retriedOnce() {
        OperationId id = chargeEndingAs("lost-before", "timeout_before_apply:1", "SUCCEEDED");

        assertThat(charging.kit().effectsFor(id)).isEqualTo(1);
        assertThat(charging.kit().jdbc().query("SELECT outcome FROM reconciliations WHERE operation_id = ?", row -> row.getString(1), id.value()))
                .containsExactly("NOT_APPLIED");
        assertThat(charging.kit().jdbc().query("SELECT outcome || '/' || coalesce(error_class, '-') FROM attempts WHERE operation_id = ? ORDER BY attempt",
                row -> row.getString(1), id.value())).containsExactly("RETRY_SCHEDULED/UNKNOWN_SIDE_EFFECT", "SUCCEEDED/-");
    }

    @Test
    void effectCannotBeToldApart_deadLetteredWithSideEffectPossible() {
        OperationId id = chargeEndingAs("cannot-tell", "timeout_after_apply:1;lookup_down:1", "DEAD_LETTERED");

        assertThat(charging.kit().jdbc().queryOne("SELECT error_class || '/' || side_effect FROM dlq_entries WHERE operation_id = ?",
                row -> row.getString(1), id.value())).contains("UNKNOWN_SIDE_EFFECT/POSSIBLE");
        assertThat(charging.kit().jdbc().query("SELECT outcome FROM reconciliations WHERE operation_id = ?", row -> row.getString(1), id.value()))
                .containsExactly("UNKNOWN");
    }

    @Test
    void transientFailures_retriedWithBackoff_untilSuccess() {
        OperationId id = chargeEndingAs("transient", "transient:2", "SUCCEEDED");

        assertThat(charging.kit().callsFor(id)).isEqualTo(3);
        assertThat(charging.kit().effectsFor(id)).isEqualTo(1);
        assertThat(charging.kit().jdbc().query("SELECT coalesce(error_class, '-') FROM attempts WHERE operation_id = ? ORDER BY attempt",
                row -> row.getString(1), id.value())).containsExactly("TRANSIENT", "TRANSIENT", "-");
    }

    @Test
    void permissionRefused_deadLetteredAfterOneAttempt() {
        OperationId id = chargeEndingAs("forbidden", "forbidden", "DEAD_LETTERED");

        assertThat(charging.kit().callsFor(id)).isEqualTo(1);
        assertThat(charging.kit().jdbc().queryOne("SELECT error_class || '/' || error_code FROM dlq_entries WHERE operation_id = ?",
                row -> row.getString(1), id.value())).contains("PERMISSION/http_403");
    }

    @Test
    void dependencyDown_defersTheWholeTool_untilTheRetryIsDue() {
        OperationId first = charging.kit().dispatch("down", "first", "{\"amount\":7,\"fault\":\"dependency_down:1\"}").operationId();
        await().atMost(Duration.ofSeconds(10)).until(() ->
                charging.kit().count("SELECT count(*) FROM attempts WHERE operation_id = ?", first.value()) == 1);
        Instant reopensAt = charging.kit().jdbc().queryOne("SELECT next_eligible_at FROM attempts WHERE operation_id = ?",
                row -> row.getTimestamp(1).toInstant(), first.value()).orElseThrow();

        OperationId second = charging.kit().dispatch("down", "second", "{\"amount\":3}").operationId();

        charging.kit().awaitStatus(first, "SUCCEEDED", Duration.ofSeconds(10));
        charging.kit().awaitStatus(second, "SUCCEEDED", Duration.ofSeconds(10));
        List<Instant> secondCalls = charging.kit().jdbc().query("SELECT received_at FROM demo_tool_calls WHERE idempotency_key = ?",
                row -> row.getTimestamp(1).toInstant(), second.idempotencyKey());
        assertThat(secondCalls).hasSize(1);
        assertThat(secondCalls.get(0)).isAfterOrEqualTo(reopensAt);
        assertThat(charging.kit().count("SELECT count(*) FROM attempts WHERE operation_id = ?", second.value()))
                .as("a deferral spends no attempt").isEqualTo(1);
    }

    /** Dispatches a charge of 7 whose call fails as {@code fault} says, and waits until it is {@code status}. */
    private static OperationId chargeEndingAs(String run, String fault, String status) {
        OperationId id = charging.kit().dispatch(run, "charge", "{\"amount\":7,\"fault\":\"" + fault + "\"}")
                .operationId();
        charging.kit().awaitStatus(id, status, Duration.ofSeconds(10));
        return id;
    }
}
