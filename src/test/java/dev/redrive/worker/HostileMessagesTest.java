package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.TestNamespace;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A corpus of hostile messages (numbers no decimal can hold, nesting 100,000 deep, megabyte strings, lone surrogates,
 * duplicate keys, byte order marks, NUL, text that is not JSON, fields of the wrong type or missing), plus seeded random
 * mutations of good dispatches, interleaved with good dispatches in the same batches: every good dispatch runs once,
 * every bad message is dead-lettered alone within 10 s with a code naming what is wrong and its raw fields kept, and the
 * stream drains: nothing stays pending, and the stream is trimmed to its retention.
 */
class HostileMessagesTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final long RETENTION = 20;
    private static final int RANDOM_MUTANTS = 40;
    private static final AnswersAtOnce ANYTHING = new AnswersAtOnce("fuzz.anything");

    /** A hostile message: the entry it was added as, and the code it must be dead-lettered with. */
    private record Hostile(String name, String entryId, String code) {
    }

    /** A random mutant: whether it ends valid (and runs once) or dead-lettered depends on what the mutation made of it. */
    private record Mutant(String description, String entryId, String idempotencyKey) {
    }

    @Test
    void everyHostileMessage_isDeadLetteredAlone_andEveryGoodDispatchBesideItRunsOnce() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            List<OperationId> good = new ArrayList<>();
            List<Hostile> hostile = new ArrayList<>();
            List<Runnable> corpus = corpus(kit, hostile);
            for (int i = 0; i < corpus.size(); i++) {
                good.add(goodDispatch(kit, i));
                corpus.get(i).run();
            }
            long seed = Long.getLong("redrive.fuzz.seed", System.nanoTime());
            Random random = new Random(seed);
            List<Mutant> mutants = new ArrayList<>();
            for (int i = 0; i < RANDOM_MUTANTS; i++) {
                good.add(goodDispatch(kit, corpus.size() + i));
                mutants.add(mutant(kit, random, i));
            }
            // Duplicate keys are valid JSON (the last one counts): hostile-looking, but a dispatch to run.
            OperationId duplicateKeys = new OperationId("good", "duplicate-keys", 0);
            kit.xaddRaw(kit.foreignDispatch(duplicateKeys, "{\"amount\":1,\"amount\":2}"));
            good.add(duplicateKeys);
            // jsonb writes 1e1000 out as 1,001 digits: the second delivery is compared with that record, and answered.
            // (The demo tool's own parser refuses such a number: a tool that takes anything runs it.)
            OperationId longNumber = new OperationId("good", "long-number", 0);
            Map<String, byte[]> twice = kit.foreignDispatch(longNumber, "{\"amount\":1e1000}");
            twice.put("tool", ANYTHING.name().getBytes(StandardCharsets.UTF_8));
            List<String> longNumberEntries = List.of(kit.xaddRaw(twice), kit.xaddRaw(twice));

            long started = System.nanoTime();
            // A mutant may name a tool nobody serves: it is handed on, then dead-lettered once the grace has passed.
            kit.start(kit.worker("hostile", kit.charge(Duration.ofSeconds(5))).tool(ANYTHING).batchSize(64)
                    .streamRetention(RETENTION).unservedToolGrace(Duration.ofSeconds(2)));

            for (Hostile message : hostile) {
                Duration left = Duration.ofSeconds(10).minusNanos(System.nanoTime() - started);
                try {
                    await().atMost(left.isNegative() ? Duration.ZERO : left).pollInterval(Duration.ofMillis(50))
                            .until(() -> dlqCode(kit, message.entryId()) != null);
                } catch (ConditionTimeoutException e) {
                    throw new AssertionError(message.name() + " was not dead-lettered within 10 s; pending "
                            + kit.pendingEntries(), e);
                }
            }
            for (OperationId id : good) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(30));
                assertThat(kit.callsFor(id)).as("tool calls of %s", id).isEqualTo(1);
                assertThat(kit.effectsFor(id)).as("effects of %s", id).isEqualTo(1);
            }
            for (Hostile message : hostile) {
                Map<String, String> entry = dlqEntry(kit, message.entryId());
                assertThat(entry.get("error_class")).as(message.name()).isEqualTo("INVALID_INPUT");
                assertThat(entry.get("error_code")).as(message.name() + ": " + entry.get("error_message"))
                        .isEqualTo(message.code());
                assertThat(entry.get("raw")).as("raw message of %s kept", message.name()).contains("\"v\"");
            }
            kit.awaitStatus(longNumber, "SUCCEEDED", Duration.ofSeconds(10));
            for (String entryId : longNumberEntries) {
                assertThat(dlqCode(kit, entryId)).as("a repeat of %s", longNumber).isNull();
            }
            for (Mutant mutant : mutants) {
                // A mutant the decoder takes may still be one the tool cannot take (a trace id no HTTP header can
                // carry, say): then it reaches the DLQ through the delivery limit, a few lease times later.
                String why = mutant.description() + " (seed " + seed + ")";
                // Dead-lettered as the message it is (by its entry), or as an operation (a tool nobody serves, after
                // being handed on under another entry), or run.
                await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(50)).alias(why).until(() ->
                        dlqCode(kit, mutant.entryId()) != null || kit.count("SELECT count(*) FROM operations WHERE "
                                + "idempotency_key = ? AND status IN ('SUCCEEDED', 'DEAD_LETTERED')",
                                mutant.idempotencyKey()) == 1);
                if (kit.count("SELECT count(*) FROM operations WHERE idempotency_key = ? AND status = 'SUCCEEDED'",
                        mutant.idempotencyKey()) == 1) {
                    assertThat(kit.count("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key = ?",
                            mutant.idempotencyKey())).as("tool calls of %s", why).isEqualTo(1);
                }
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> kit.pendingEntries() == 0);
            String stream = ns.redis().keys().dispatch();
            await().atMost(Duration.ofSeconds(10)).until(() -> ns.redis().sync().xlen(stream) <= RETENTION);
            assertThat(kit.jdbc().query("SELECT operation_id || ' ' || status FROM operations WHERE status "
                    + "NOT IN ('SUCCEEDED', 'DEAD_LETTERED') OR status = 'DEAD_LETTERED' AND run_id <> 'mutant'",
                    row -> row.getString(1))).as("operations left waiting, or dead-lettered though good (seed %d)", seed)
                    .isEmpty();
        }
    }

    private static OperationId goodDispatch(WorkerTestKit kit, int i) {
        OperationId id = new OperationId("good", "op" + i, 0);
        if (i % 2 == 0) {
            kit.xaddRaw(kit.foreignDispatch(id, "{\"amount\":" + i + "}"));
        } else {
            kit.dispatch("good", "op" + i, "{\"amount\":" + i + "}");
        }
        return id;
    }

    /** Each element adds one hostile message when run, and notes what it must become. */
    private static List<Runnable> corpus(WorkerTestKit kit, List<Hostile> hostile) {
        List<Runnable> corpus = new ArrayList<>();
        Map<String, String> numbers = new LinkedHashMap<>();
        numbers.put("huge-exponent", "{\"amount\":1e2147483648}");
        numbers.put("huge-negative", "{\"amount\":-1e2147483648}");
        numbers.put("tiny-exponent", "{\"amount\":1e-2147483649}");
        numbers.put("tiny-negative", "{\"amount\":-1E-2147483649}");
        numbers.put("huge-exponent-deep-inside", "{\"order\":{\"lines\":[1,{\"qty\":2.5e+9999999999}]}}");
        numbers.forEach((name, payload) -> corpus.add(() -> hostile.add(payload(kit, name, payload, "unreadable_number"))));

        corpus.add(() -> hostile.add(payload(kit, "nesting-100000", "{\"a\":" + "[".repeat(100_000) + "]".repeat(100_000)
                + "}", "nesting_too_deep")));
        corpus.add(() -> hostile.add(payload(kit, "unclosed-nesting-100000", "{\"a\":" + "[".repeat(100_000),
                "nesting_too_deep")));
        corpus.add(() -> hostile.add(payload(kit, "nesting-1001", "{\"a\":" + "[".repeat(1000) + "]".repeat(1000) + "}",
                "nesting_too_deep")));
        corpus.add(() -> hostile.add(payload(kit, "megabyte-string", "{\"s\":\"" + "x".repeat(1 << 20) + "\"}",
                "payload_too_large")));
        corpus.add(() -> hostile.add(field(kit, "megabyte-trace-id", "trace_id", randomPrintable(1 << 20), "invalid_text")));
        corpus.add(() -> hostile.add(field(kit, "megabyte-run-id", "run_id", "r".repeat(1 << 20), "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "lone-surrogate-escape", "{\"note\":\"\\ud800\"}", "unstorable_payload")));
        corpus.add(() -> hostile.add(payload(kit, "lone-surrogate-key", "{\"\\udfff\":1}", "unstorable_payload")));
        corpus.add(() -> hostile.add(bytes(kit, "lone-surrogate-bytes", "payload",
                new byte[]{'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'}, "invalid_utf8")));
        corpus.add(() -> hostile.add(payload(kit, "bom-payload", "\uFEFF{\"amount\":1}", "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "bom-version", "v", "\uFEFF1", "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "nul-raw", "{\"a\":\"x\u0000y\"}", "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "nul-escaped", "{\"a\":\"x\\u0000y\"}", "unstorable_payload")));
        corpus.add(() -> hostile.add(field(kit, "nul-run-id", "run_id", "run\u0000", "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "not-json", "amount=10", "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "half-json", "{\"amount\":", "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "array", "[{\"amount\":1}]", "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "trailing-text", "{\"amount\":1} x", "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "long-number", "{\"n\":" + "1".repeat(1001) + "}", "invalid_envelope")));
        corpus.add(() -> hostile.add(payload(kit, "long-key", "{\"" + "k".repeat(60_000) + "\":1}", "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "attempt-text", "attempt", "x", "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "attempt-huge", "attempt", "99999999999999999999", "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "attempt-exponent", "attempt", "1e2147483648", "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "logical-attempt-huge", "logical_attempt", "99999999999999999999",
                "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "version-number", "v", "1.0", "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "dispatched-at-text", "dispatched_at", "yesterday", "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "error-class-number", "last_error_class", "7", "invalid_envelope")));
        corpus.add(() -> hostile.add(field(kit, "command-not-uuid", "redrive_command_id", "{}", "invalid_envelope")));
        corpus.add(() -> hostile.add(without(kit, "payload-missing", "payload", "invalid_envelope")));
        corpus.add(() -> hostile.add(without(kit, "tool-missing", "tool", "invalid_envelope")));
        corpus.add(() -> hostile.add(without(kit, "operation-id-missing", "operation_id", "invalid_envelope")));
        return corpus;
    }

    private static Hostile payload(WorkerTestKit kit, String name, String payload, String code) {
        return field(kit, name, "payload", payload, code);
    }

    private static Hostile field(WorkerTestKit kit, String name, String field, String value, String code) {
        return bytes(kit, name, field, value.getBytes(StandardCharsets.UTF_8), code);
    }

    private static Hostile bytes(WorkerTestKit kit, String name, String field, byte[] value, String code) {
        return hostile(kit, name, code, fields -> fields.put(field, value));
    }

    private static Hostile without(WorkerTestKit kit, String name, String field, String code) {
        return hostile(kit, name, code, fields -> fields.remove(field));
    }

    private static Hostile hostile(WorkerTestKit kit, String name, String code, Consumer<Map<String, byte[]>> change) {
        Map<String, byte[]> fields = kit.foreignDispatch(new OperationId("hostile", name, 0), "{\"amount\":1}");
        change.accept(fields);
        return new Hostile(name, kit.xaddRaw(fields), code);
    }

    /** A good foreign dispatch with one field replaced by something drawn at random, or dropped. */
    private static Mutant mutant(WorkerTestKit kit, Random random, int i) {
        OperationId id = new OperationId("mutant", "m" + i, 0);
        Map<String, byte[]> fields = kit.foreignDispatch(id, "{\"amount\":" + i + ",\"note\":\"n\"}");
        List<String> names = new ArrayList<>(fields.keySet());
        String field = names.get(random.nextInt(names.size()));
        byte[] value;
        switch (random.nextInt(6)) {
            case 0 -> {
                value = new byte[random.nextInt(40)];
                random.nextBytes(value);
            }
            case 1 -> value = randomText(random.nextInt(2000) + 1).getBytes(StandardCharsets.UTF_8);
            case 2 -> value = ((random.nextBoolean() ? "-" : "") + random.nextInt(10) + "e"
                    + (random.nextBoolean() ? "-" : "") + (2147483647L + random.nextInt(1000)))
                    .getBytes(StandardCharsets.UTF_8);
            case 3 -> value = null;
            case 4 -> value = hostileJson(random);
            default -> value = new byte[0];
        }
        if (value == null) {
            fields.remove(field);
        } else {
            fields.put(field, value);
        }
        String description = "mutant " + i + ": " + field + (value == null ? " dropped" : " = " + preview(value));
        String key = new String(fields.getOrDefault("idempotency_key", new byte[0]), StandardCharsets.UTF_8);
        return new Mutant(description, kit.xaddRaw(fields), key);
    }

    /** A good payload with a hostile value in it. */
    private static byte[] hostileJson(Random random) {
        String[] values = {"1e2147483648", "-1e-2147483649", "\"\\ud800\"", "\"\\u0000\"", "[".repeat(5000),
                "{\"a\":1,\"a\":2}", "\"\uFEFF\"", "0x10", "NaN", "1e131072", "\"" + "z".repeat(300_000) + "\""};
        return ("{\"amount\":1,\"x\":" + values[random.nextInt(values.length)] + "}").getBytes(StandardCharsets.UTF_8);
    }

    /** Text of random characters from all planes, including unpaired surrogates and control characters. */
    private static String randomText(int length) {
        Random random = new Random(length);
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            text.append((char) random.nextInt(Character.MAX_VALUE + 1));
        }
        return text.toString();
    }

    /** Text of random CJK characters: printable, and nothing a compressor can shrink much. */
    private static String randomPrintable(int length) {
        Random random = new Random(length);
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            text.append((char) (0x4E00 + random.nextInt(0x5000)));
        }
        return text.toString();
    }

    private static String preview(byte[] value) {
        String text = new String(value, StandardCharsets.UTF_8);
        return text.length() <= 40 ? "'" + text + "'" : "'" + text.substring(0, 40) + "...' (" + value.length + " bytes)";
    }

    private static String dlqCode(WorkerTestKit kit, String entryId) {
        return kit.jdbc().queryOne("SELECT error_code FROM dlq_entries WHERE entry_id = ?", row -> row.getString(1),
                entryId).orElse(null);
    }

    private static Map<String, String> dlqEntry(WorkerTestKit kit, String entryId) {
        return kit.jdbc().queryOne("""
                SELECT error_class, error_code, error_message, raw_message::text AS raw
                  FROM dlq_entries WHERE entry_id = ?""", row -> {
            Map<String, String> columns = new LinkedHashMap<>();
            for (String column : List.of("error_class", "error_code", "error_message", "raw")) {
                columns.put(column, row.getString(column));
            }
            return columns;
        }, entryId).orElseThrow(() -> new AssertionError("no DLQ entry for " + entryId));
    }
}
