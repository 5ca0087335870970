package dev.redrive.store.deadletter;

import dev.redrive.model.FailureClass;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Evidence the indexes of {@code dlq_entries} cannot carry (an index row holds some 2,700 bytes) never fails the
 * statement that enters a message: an error message quoting a field a megabyte long is cut, and a raw field too long
 * to search by is left to the raw message.
 */
class OversizedEvidenceTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void aMessageWithMegabyteFields_isEntered_withItsErrorCut_andItsLongFieldsOnlyInTheRawMessage() {
        String megabyte = incompressible(1 << 20);
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put("v", "1");
        raw.put("run_id", megabyte.substring(0, 20_000));
        raw.put("node_id", "charge");
        raw.put("trace_id", megabyte.substring(0, 600));
        raw.put("correlation_id", "corr-1");
        MessageDeadLetter letter = new MessageDeadLetter("{t}:dispatch", "1-1", 1, "worker-1", raw,
                FailureClass.INVALID_INPUT, "invalid_envelope", "run_id must match [A-Za-z0-9._-]{1,128}, got '"
                + megabyte + "'", "redrive-java/test", Instant.parse("2026-12-01T12:00:00Z"));

        DeadLetterEvent event = new DeadLetterStore(ns.database().jdbc()).enterForMessage(letter);

        Map<String, String> entry = ns.database().jdbc().queryOne("""
                SELECT run_id, node_id, trace_id, correlation_id, error_message, raw_message->>'run_id' AS raw_run
                  FROM dlq_entries WHERE id = ?""", row -> {
            Map<String, String> columns = new LinkedHashMap<>();
            for (String column : List.of("run_id", "node_id", "trace_id", "correlation_id", "error_message", "raw_run")) {
                columns.put(column, row.getString(column));
            }
            return columns;
        }, event.dlqEntryId()).orElseThrow();
        assertThat(entry.get("run_id")).as("too long to search by").isNull();
        assertThat(entry.get("trace_id")).as("too long to search by").isNull();
        assertThat(entry.get("node_id")).isEqualTo("charge");
        assertThat(entry.get("correlation_id")).isEqualTo("corr-1");
        assertThat(entry.get("error_message")).hasSize(DeadLetterStore.MAX_ERROR_MESSAGE)
                .startsWith("run_id must match").endsWith("\u2026");
        assertThat(entry.get("raw_run")).as("kept in the raw message").isEqualTo(megabyte.substring(0, 20_000));
    }

    /** Random CJK characters, three bytes each in UTF-8, which no compressor shrinks to fit an index row. */
    private static String incompressible(int length) {
        Random random = new Random(7);
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            text.append((char) (0x4E00 + random.nextInt(0x5000)));
        }
        return text.toString();
    }
}
