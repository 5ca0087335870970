package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Payloads holding a number no parser can hold ({@code 1e2147483648}: an exponent past 32 bits) used to throw out of
 * the batch that read them: the batch stayed pending for good, the good dispatches read with it never ran, and the
 * stream was never trimmed past them. Each is now dead-lettered alone and its batch goes on.
 */
class UnreadableNumbersTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final long RETENTION = 3;

    @Test
    void fourUnreadableNumbers_amongFiveGoodDispatches_stopNoneOfThem_andTheStreamIsTrimmed() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            String[] poisons = {"{\"amount\":1e2147483648}", "{\"amount\":-1e2147483648}", "{\"amount\":1e-2147483649}",
                    "{\"order\":{\"lines\":[{\"qty\":-1E-2147483649}]}}"};
            List<OperationId> good = new ArrayList<>();
            List<String> poisonEntries = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                good.add(kit.dispatch("good", "op" + i, "{\"amount\":" + (i + 1) + "}").operationId());
                if (i < poisons.length) {
                    Map<String, byte[]> fields = kit.foreignDispatch(new OperationId("poison", "n" + i, 0), "{}");
                    fields.put("payload", poisons[i].getBytes(StandardCharsets.UTF_8));
                    poisonEntries.add(kit.xaddRaw(fields));
                }
            }

            kit.start(kit.worker("numbers", kit.charge(Duration.ofSeconds(5))).batchSize(16).streamRetention(RETENTION));

            for (OperationId id : good) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(20));
                assertThat(kit.callsFor(id)).as("tool calls of %s", id).isEqualTo(1);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> kit.count(
                    "SELECT count(*) FROM dlq_entries WHERE error_code = 'unreadable_number'") == poisons.length);
            for (String entryId : poisonEntries) {
                assertThat(kit.jdbc().queryOne("SELECT error_class || ' ' || error_code || ' ' || (raw_message->>'payload') "
                        + "FROM dlq_entries WHERE entry_id = ?", row -> row.getString(1), entryId))
                        .hasValueSatisfying(text -> assertThat(text).startsWith("INVALID_INPUT unreadable_number {"));
            }
            assertThat(kit.count("SELECT count(*) FROM operations WHERE run_id = 'poison'")).isZero();
            await().atMost(Duration.ofSeconds(5)).until(() -> kit.pendingEntries() == 0);
            String stream = ns.redis().keys().dispatch();
            await().atMost(Duration.ofSeconds(10)).until(() -> ns.redis().sync().xlen(stream) <= RETENTION);
        }
    }
}
