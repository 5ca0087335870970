package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operation id or idempotency key reused by another runtime with other parameters never runs and never replays
 * the first request's result: the dispatch is dead-lettered as idempotency_conflict and the stored operation stays as
 * it was. The same dispatch repeated is answered from the facts as before.
 */
class KeyReuseTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void foreignDispatchesReusingAnIdOrAKey_withOtherParameters_areConflicts() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            kit.start(kit.worker("reuse", kit.charge(Duration.ofSeconds(5))));
            OperationId first = new OperationId("reuse", "charge", 0);
            kit.xaddRaw(kit.foreignDispatch(first, "{\"amount\":10}"));
            kit.awaitStatus(first, "SUCCEEDED", Duration.ofSeconds(10));
            String result = kit.jdbc().queryOne("SELECT result::text FROM operations WHERE operation_id = ?",
                    row -> row.getString(1), first.value()).orElseThrow();

            String repeat = kit.xaddRaw(kit.foreignDispatch(first, "{ \"amount\": 10 }"));
            String otherPayload = kit.xaddRaw(kit.foreignDispatch(first, "{\"amount\":99}"));
            OperationId second = new OperationId("reuse", "refund", 0);
            Map<String, byte[]> stolenKey = kit.foreignDispatch(second, "{\"amount\":10}");
            stolenKey.put("idempotency_key", first.idempotencyKey().getBytes(StandardCharsets.UTF_8));
            String keyOfAnother = kit.xaddRaw(stolenKey);

            await().atMost(Duration.ofSeconds(10)).until(() -> kit.pendingEntries() == 0
                    && kit.count("SELECT count(*) FROM dlq_entries WHERE error_code = 'idempotency_conflict'") == 2);
            assertThat(kit.jdbc().queryOne("SELECT error_class || ' ' || error_message FROM dlq_entries WHERE entry_id = ?",
                    row -> row.getString(1), otherPayload)).hasValueSatisfying(text -> assertThat(text)
                    .matches("INVALID_INPUT operation reuse:charge:0 was recorded with parameters [0-9a-f]{64}, this "
                            + "dispatch carries [0-9a-f]{64} .*"));
            assertThat(kit.jdbc().queryOne("SELECT error_message FROM dlq_entries WHERE entry_id = ?",
                    row -> row.getString(1), keyOfAnother)).contains("idempotency key " + first.idempotencyKey()
                    + " is already bound to operation reuse:charge:0, not to reuse:refund:0");
            assertThat(kit.count("SELECT count(*) FROM dlq_entries WHERE entry_id = ?", repeat)).as("a repeat").isZero();

            assertThat(kit.jdbc().queryOne("SELECT status || ' ' || attempt || ' ' || payload::text || ' ' || result::text "
                    + "FROM operations WHERE operation_id = ?", row -> row.getString(1), first.value()))
                    .contains("SUCCEEDED 1 {\"amount\": 10} " + result);
            assertThat(kit.count("SELECT count(*) FROM operations WHERE operation_id = ?", second.value())).isZero();
            assertThat(kit.callsFor(first)).as("one call, never one for a conflicting dispatch").isEqualTo(1);
            assertThat(kit.effectsFor(first)).isEqualTo(1);
        }
    }

    @Test
    void aConflictingDispatchOfAWaitingRetry_isNotClaimed_andTheRetryRunsWithItsOwnPayload() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            OperationId id = kit.dispatch("retrying", "charge", "{\"amount\":5,\"fault\":\"transient:1\"}").operationId();
            Worker worker = kit.start(kit.worker("retry-reuse", kit.charge(Duration.ofSeconds(5))));
            String conflicting = kit.xaddRaw(kit.foreignDispatch(id, "{\"amount\":500}"));

            kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(10));
            await().atMost(Duration.ofSeconds(5)).until(() -> kit.count(
                    "SELECT count(*) FROM dlq_entries WHERE entry_id = ? AND error_code = 'idempotency_conflict'", conflicting) == 1);
            assertThat(kit.jdbc().queryOne("SELECT payload->>'amount' FROM operations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).contains("5");
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(worker.state()).isEqualTo(WorkerState.RUNNING);
        }
    }
}
