package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Messages the operation store cannot hold, mixed into one batch with good work: each is dead-lettered alone with a
 * code naming what is wrong and its raw fields kept; the good work of the same batch runs once; nothing stays pending,
 * running or claimed over and over.
 */
class PoisonBatchTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private record Poison(String entryId, String code, String message) {
    }

    @Test
    void eachUnstorableMessage_isDeadLetteredAlone_andTheGoodWorkOfItsBatchRunsOnce() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            List<OperationId> good = new ArrayList<>();
            List<Poison> poisons = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                good.add(kit.dispatch("good", "op" + i, "{\"amount\":" + i + "}").operationId());
                if (i == 1) {
                    poisons.add(poison(kit, "overflow", "payload", "{\"amount\":1e999999}", "unstorable_payload",
                            "payload.amount is a number out of range"));
                }
                if (i == 3) {
                    poisons.add(poison(kit, "nul-note", "payload", "{\"note\":\"\\u0000\"}", "unstorable_payload",
                            "payload.note holds U+0000"));
                }
                if (i == 5) {
                    poisons.add(poison(kit, "nul-trace", "trace_id", "trace\u0000id", "invalid_text",
                            "trace_id holds U+0000"));
                }
                if (i == 7) {
                    poisons.add(poisonBytes(kit, "bad-utf8", "payload",
                            new byte[]{'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'},
                            "invalid_utf8", "not UTF-8: payload (byte 6)"));
                }
                if (i == 9) {
                    poisons.add(poison(kit, "bad-key", "idempotency_key", "key with spaces", "invalid_text",
                            "idempotency_key holds U+0020"));
                    poisons.add(poison(kit, "forged", "redrive_command_id", UUID.randomUUID().toString(),
                            "unknown_redrive_command", "names no redrive command issued for operation"));
                }
            }

            kit.start(kit.worker("poison-batch", kit.charge(Duration.ofSeconds(5))).batchSize(64));

            for (OperationId id : good) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(20));
                assertThat(kit.effectsFor(id)).as("effects of %s", id).isEqualTo(1);
            }
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    kit.count("SELECT count(*) FROM dlq_entries WHERE dedup_key LIKE 'msg:%'") == poisons.size());
            for (Poison poison : poisons) {
                Map<String, Object> entry = kit.jdbc().queryOne("""
                        SELECT error_class, error_code, error_message, raw_message::text AS raw, operation_id
                          FROM dlq_entries WHERE entry_id = ?""", row -> {
                    Map<String, Object> columns = new LinkedHashMap<>();
                    for (String column : List.of("error_class", "error_code", "error_message", "raw", "operation_id")) {
                        columns.put(column, row.getString(column));
                    }
                    return columns;
                }, poison.entryId()).orElseThrow(() -> new AssertionError("no DLQ entry for " + poison));
                assertThat(entry.get("error_class")).as(poison.toString()).isEqualTo("INVALID_INPUT");
                assertThat(entry.get("error_code")).as(poison.toString()).isEqualTo(poison.code());
                assertThat((String) entry.get("error_message")).as(poison.toString()).contains(poison.message());
                assertThat((String) entry.get("raw")).as("raw message kept").contains("\"v\": \"1\"");
                assertThat(kit.count("SELECT count(*) FROM operations WHERE operation_id = ?", entry.get("operation_id")))
                        .as("no operation recorded for %s", poison).isZero();
            }
            assertThat(kit.jdbc().queryOne("SELECT raw_message->>'trace_id' FROM dlq_entries WHERE error_message LIKE 'trace_id%'",
                    row -> row.getString(1))).contains("trace\\u0000id");
            await().atMost(Duration.ofSeconds(5)).until(() -> kit.pendingEntries() == 0);
            assertThat(kit.count("SELECT count(*) FROM operations WHERE status NOT IN ('SUCCEEDED')")).isZero();
            assertThat(kit.count("SELECT coalesce(max(fencing_token), 0) FROM operations")).as("each claimed once").isEqualTo(1);
        }
    }

    private static Poison poison(WorkerTestKit kit, String node, String field, String value, String code, String message) {
        return poisonBytes(kit, node, field, value.getBytes(StandardCharsets.UTF_8), code, message);
    }

    private static Poison poisonBytes(WorkerTestKit kit, String node, String field, byte[] value, String code,
                                      String message) {
        Map<String, byte[]> fields = kit.foreignDispatch(new OperationId("poison", node, 0), "{\"amount\":1}");
        fields.put(field, value);
        return new Poison(kit.xaddRaw(fields), code, message);
    }
}
