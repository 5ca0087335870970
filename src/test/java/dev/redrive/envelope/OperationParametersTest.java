package dev.redrive.envelope;

import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two payloads are the same parameters exactly when PostgreSQL finds them equal as jsonb: the worker's claim statement
 * compares jsonb values, the eligibility rules and the CLI compare canonical hashes, and the two must never disagree.
 */
class OperationParametersTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final List<List<String>> PAIRS = List.of(
            List.of("{\"a\":1,\"b\":2}", "{ \"b\" : 2, \"a\" : 1 }"),
            List.of("{\"n\":100}", "{\"n\":1e2}"),
            List.of("{\"n\":100}", "{\"n\":100.000}"),
            List.of("{\"n\":0}", "{\"n\":-0.0}"),
            List.of("{\"n\":1.5}", "{\"n\":1.50}"),
            List.of("{\"n\":1.5}", "{\"n\":1.51}"),
            List.of("{\"n\":1}", "{\"n\":\"1\"}"),
            List.of("{\"s\":\"\\u00e9\"}", "{\"s\":\"é\"}"),
            List.of("{\"s\":\"\\t\"}", "{\"s\":\"\\u0009\"}"),
            List.of("{\"a\":[1,2]}", "{\"a\":[2,1]}"),
            List.of("{\"a\":{\"x\":null}}", "{\"a\":{}}"),
            List.of("{\"a\":1,\"a\":2}", "{\"a\":2}"),
            List.of("{\"a\":true}", "{\"a\":\"true\"}"),
            List.of("{\"big\":1e400}", "{\"big\":10e399}"),
            // jsonb writes these out in full, longer than a dispatch may spell a number (1,000 characters)
            List.of("{\"big\":1e1000}", "{\"big\":10e999}"),
            List.of("{\"big\":1e131071,\"small\":-1e-16383}", "{\"small\":-0.1e-16382,\"big\":0.1e131072}"),
            List.of("{\"k\":\"\\uD83D\\uDE00\"}", "{\"k\":\"😀\"}"));

    @Test
    void canonicalHashesAgreeWithJsonbEquality_onEveryPair() {
        for (List<String> pair : PAIRS) {
            boolean jsonbEqual = ns.database().jdbc().queryOne("SELECT ?::jsonb = ?::jsonb", row -> row.getBoolean(1),
                    pair.get(0), pair.get(1)).orElseThrow();
            boolean hashesEqual = OperationParameters.hash("t", "k", pair.get(0))
                    .equals(OperationParameters.hash("t", "k", pair.get(1)));
            assertThat(hashesEqual).as("%s vs %s", pair.get(0), pair.get(1)).isEqualTo(jsonbEqual);
        }
    }

    @Test
    void theCanonicalFormOfWhatPostgresqlStored_isTheCanonicalFormOfWhatWasSent() {
        for (List<String> pair : PAIRS) {
            String stored = ns.database().jdbc().queryOne("SELECT ?::jsonb::text", row -> row.getString(1), pair.get(0))
                    .orElseThrow();
            assertThat(JsonPayload.parseRecorded(stored).canonical())
                    .isEqualTo(JsonPayload.parse(pair.get(0), Integer.MAX_VALUE).canonical());
        }
    }

    @Test
    void toolAndIdempotencyKeyArePartOfTheParameters() {
        String payload = "{\"amount\":10}";
        assertThat(OperationParameters.hash("demo.charge", "op-1", payload))
                .isNotEqualTo(OperationParameters.hash("demo.ship", "op-1", payload))
                .isNotEqualTo(OperationParameters.hash("demo.charge", "op-2", payload))
                .hasSize(64);
        assertThat(JsonPayload.parse("{\"b\":[1.0,{\"d\":1,\"c\":2}],\"a\":\"x\"}", 1000).canonical())
                .isEqualTo("{\"a\":\"x\",\"b\":[1,{\"c\":2,\"d\":1}]}");
    }
}
