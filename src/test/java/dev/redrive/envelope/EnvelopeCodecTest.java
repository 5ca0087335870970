package dev.redrive.envelope;

import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class EnvelopeCodecTest {
    private final EnvelopeCodec codec = new EnvelopeCodec(1024);
    private final OperationId id = new OperationId("run-7", "charge", 0);
    private final DispatchEnvelope envelope = new DispatchEnvelope(id, 1, "demo.charge", "1", id.idempotencyKey(),
            "{\"amount\":10}", "trace-1", "corr-1", "redrive-java/test", Instant.parse("2026-11-29T10:00:00Z"),
            null, null, null, null, null);

    @Test
    void anEncodedEnvelope_decodesToTheSameValue() {
        assertThat(codec.decode(codec.encode(envelope))).isEqualTo(envelope);
    }

    @Test
    void aRetry_keepsOperationIdAndIdempotencyKey_andIncrementsTheAttempt() {
        DispatchEnvelope retry = envelope.retry(Instant.parse("2026-11-29T10:00:05Z"), FailureClass.RATE_LIMITED,
                Instant.parse("2026-11-29T10:00:01Z"));

        Map<String, String> wire = codec.encode(retry);
        assertThat(wire).containsEntry("operation_id", "run-7:charge:0")
                .containsEntry("idempotency_key", envelope.idempotencyKey())
                .containsEntry("attempt", "2")
                .containsEntry("next_eligible_at", "2026-11-29T10:00:05Z")
                .containsEntry("last_error_class", "RATE_LIMITED");
    }

    @Test
    void anOperationIdThatIsNotTheIdentity_isRefused() {
        Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
        wire.put("operation_id", "run-7:other:0");

        assertThatThrownBy(() -> codec.decode(wire)).isInstanceOf(InvalidEnvelopeException.class)
                .hasMessageContaining("operation_id must equal run_id:node_id:logical_attempt");
    }

    @Test
    void badInput_namesTheField() {
        assertBad("run_id", "run 7!", "run_id must match");
        assertBad("payload", "{not json", "payload is not JSON");
        assertBad("payload", "[1,2]", "payload must be a JSON object");
        assertBad("payload", "{\"x\":\"" + "a".repeat(2000) + "\"}", "over the limit of 1024");
        assertBad("attempt", "0", "attempt must be 1 or more");
        assertBad("v", "2", "v must be 1");
        assertBad("dispatched_at", "yesterday", "dispatched_at must be an ISO-8601 instant");
    }

    @Test
    void aPayloadThatIsNotJson_isRefusedSayingWhereAndWhat_neverQuotingIt() {
        for (String payload : List.of("{\"api_key\": sk_live_Lk1X}", "{\"password\": hunter2Lk2}",
                "{\"token\": \"Lk3cut", "{\"amount\": 1} Lk4trailing")) {
            Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
            wire.put("payload", payload);
            assertThatThrownBy(() -> codec.decode(wire)).as(payload).isInstanceOf(InvalidEnvelopeException.class)
                    .hasMessageStartingWith("payload is not JSON: ").hasMessageContaining(" at line 1, column ")
                    .hasMessageNotContaining("Lk");
        }
    }

    @Test
    void aNumberNoDecimalCanHold_isRefusedAsUnreadable_withoutQuotingIt() {
        assertCode("payload", "{\"n\": 1e99999999999999999999}", InvalidEnvelopeException.UNREADABLE_NUMBER,
                "payload holds a number no decimal can hold");
    }

    @Test
    void inputQuotedInAnError_isMaskedThenCut() {
        assertBad("tool", "x password=hunter2Lk6", "got 'x password=[redacted]'");
        assertBad("attempt", "token=Lk7", "attempt must be a whole number, got 'token=[redacted]'");
        Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
        wire.put("dispatched_at", "x".repeat(100_000) + " password=Lk8");
        assertThatThrownBy(() -> codec.decode(wire)).isInstanceOf(InvalidEnvelopeException.class)
                .hasMessageEndingWith("'... (100013 characters)").hasMessageNotContaining("Lk8")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
    }

    @Test
    void whatPostgresqlCannotHold_isRefusedWithItsCode_beforeAnyStatement() {
        assertCode("trace_id", "trace\u0000x", InvalidEnvelopeException.INVALID_TEXT, "trace_id holds U+0000 at character 5");
        assertCode("correlation_id", "a\u0007b", InvalidEnvelopeException.INVALID_TEXT, "U+0007");
        assertCode("tool_schema_version", "1\n", InvalidEnvelopeException.INVALID_TEXT, "tool_schema_version");
        assertCode("approval_id", "x\uD800", InvalidEnvelopeException.INVALID_TEXT, "U+D800");
        assertCode("idempotency_key", "key with space", InvalidEnvelopeException.INVALID_TEXT, "visible ASCII");
        assertCode("idempotency_key", "clé", InvalidEnvelopeException.INVALID_TEXT, "HTTP header");
        assertCode("idempotency_key", "k".repeat(256), InvalidEnvelopeException.INVALID_TEXT, "at most 255");
        assertCode("payload", "{\"amount\":1e999999}", InvalidEnvelopeException.UNSTORABLE_PAYLOAD,
                "payload.amount is a number out of range");
        assertCode("payload", "{\"a\":[1, 1e-16384]}", InvalidEnvelopeException.UNSTORABLE_PAYLOAD, "payload.a[1]");
        assertCode("payload", "{\"note\":\"\\u0000\"}", InvalidEnvelopeException.UNSTORABLE_PAYLOAD,
                "payload.note holds U+0000");
        assertCode("payload", "{\"\\ud800\":1}", InvalidEnvelopeException.UNSTORABLE_PAYLOAD, "key");
        assertCode("payload", "{\"x\":\"" + "a".repeat(2000) + "\"}", InvalidEnvelopeException.PAYLOAD_TOO_LARGE,
                "over the limit of 1024");
        assertCode("payload", "{not json", InvalidEnvelopeException.INVALID_ENVELOPE, "payload is not JSON");
    }

    @Test
    void controlCharactersEscapedInsideJsonStrings_andNumbersAtTheEdgeOfTheRange_areAccepted() {
        Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
        wire.put("payload", "{\"tab\":\"a\\tb\\u0001\",\"big\":1e131071,\"small\":1e-16383,\"emoji\":\"\uD83D\uDE00\"}");

        assertThat(codec.decode(wire).payload()).contains("1e131071");
    }

    @Test
    void aNumberNoDecimalCanHold_isRefusedAsUnreadable_notThrownAsANumberFormatException() {
        for (String number : new String[]{"1e2147483648", "-1e2147483648", "1e-2147483649", "-1E-2147483649",
                "0.5e+9999999999", "0e2147483648"}) {
            assertCode("payload", "{\"order\":{\"lines\":[1,{\"amount\":" + number + "}]}}",
                    InvalidEnvelopeException.UNREADABLE_NUMBER, "no decimal can hold");
        }
        assertCode("payload", "1e2147483648", InvalidEnvelopeException.UNREADABLE_NUMBER, "no decimal can hold");
    }

    @Test
    void nestingDeeperThanTheLimit_isRefusedWithItsOwnCode_howeverDeep_closedOrNot() {
        EnvelopeCodec roomy = new EnvelopeCodec(EnvelopeCodec.DEFAULT_MAX_PAYLOAD_BYTES);
        int over = JsonPayload.MAX_NESTING_DEPTH + 1;
        for (String payload : new String[]{
                "{\"a\":" + "[".repeat(over - 1) + "]".repeat(over - 1) + "}",
                "{\"a\":" + "{\"a\":".repeat(over - 1) + "1" + "}".repeat(over),
                "{\"a\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}",
                "{\"a\":" + "[".repeat(100_000)}) {
            Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
            wire.put("payload", payload);
            assertThatThrownBy(() -> roomy.decode(wire)).isInstanceOfSatisfying(InvalidEnvelopeException.class,
                    e -> assertThat(e.code()).as(e.getMessage()).isEqualTo(InvalidEnvelopeException.NESTING_TOO_DEEP))
                    .hasMessageContaining("levels deep; expected at most 1000");
        }
        Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
        wire.put("payload", "{\"a\":" + "[".repeat(999) + "\"[[[{{{\\\"[\"" + "]".repeat(999) + "}");
        assertThat(roomy.decode(wire).payload()).as("1000 levels; brackets in a string do not count")
                .startsWith("{\"a\":[[");
    }

    @Test
    void aFreeTextFieldLongerThanTheLimit_isRefused_whateverItsCharacters() {
        String cjk = "\u4E2D".repeat(EnvelopeCodec.MAX_TEXT_LENGTH + 1);
        for (String field : new String[]{"trace_id", "correlation_id", "runtime_version", "tool_schema_version",
                "approval_id"}) {
            assertCode(field, cjk, InvalidEnvelopeException.INVALID_TEXT,
                    field + " is 513 characters long; expected at most 512");
            Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
            wire.put(field, "t".repeat(EnvelopeCodec.MAX_TEXT_LENGTH));
            assertThat(codec.decode(wire)).as(field + " at the limit").isNotNull();
        }
    }

    @Test
    void aFirstDispatchChecked_isRefusedAsItsRoundTripIs_withTheSameWords() {
        JsonPayload payload = JsonPayload.parse(envelope.payload(), 1024);
        String control = "t\u0007";
        List<DispatchEnvelope> bad = List.of(
                first("", "1", null, null, null), first("bad tool", "1", null, null, null),
                first("demo.charge", "", null, null, null), first("demo.charge", control, null, null, null),
                first("demo.charge", "1", control, null, null), first("demo.charge", "1", null, control, null),
                first("demo.charge", "1", null, null, "a".repeat(EnvelopeCodec.MAX_TEXT_LENGTH + 1)),
                first("bad tool", control, control, null, null));
        for (DispatchEnvelope dispatch : bad) {
            Throwable roundTrip = catchThrowable(() -> codec.decode(codec.encode(dispatch)));
            assertThat(roundTrip).isInstanceOf(InvalidEnvelopeException.class);
            assertThatThrownBy(() -> codec.checkFirstDispatch(dispatch, payload))
                    .isInstanceOf(InvalidEnvelopeException.class).hasMessage(roundTrip.getMessage());
        }
        DispatchEnvelope good = first("demo.charge", "1", "", "", "");
        codec.checkFirstDispatch(good, payload);
        assertThat(codec.decode(codec.encode(good))).isNotNull();
    }

    /** A first dispatch of {@code id} carrying {@link #envelope}'s payload text and what an author gives. */
    private DispatchEnvelope first(String tool, String schemaVersion, String traceId, String correlationId,
                                   String approvalId) {
        return new DispatchEnvelope(id, 1, tool, schemaVersion, id.idempotencyKey(), envelope.payload(), traceId,
                correlationId, "redrive-java/test", envelope.dispatchedAt(), null, null, null, approvalId, null);
    }

    private void assertCode(String field, String value, String code, String message) {
        Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
        wire.put(field, value);
        assertThatThrownBy(() -> codec.decode(wire)).isInstanceOfSatisfying(InvalidEnvelopeException.class,
                e -> assertThat(e.code()).as(e.getMessage()).isEqualTo(code)).hasMessageContaining(message);
    }

    private void assertBad(String field, String value, String message) {
        Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
        wire.put(field, value);
        assertThatThrownBy(() -> codec.decode(wire)).isInstanceOf(InvalidEnvelopeException.class)
                .hasMessageContaining(message);
    }
}
