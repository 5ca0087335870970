package dev.redrive.envelope;

import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnvelopeCodecTest {
    private final EnvelopeCodec codec = new EnvelopeCodec(1024);
    private final OperationId id = new OperationId("run-7", "charge", 0);
    private final DispatchEnvelope envelope = new DispatchEnvelope(id, 1, "demo.charge", "1", id.idempotencyKey(),
            "{\"amount\":10}", "trace-1", "corr-1", "redrive-java/test", Instant.parse("2026-11-29T10:00:00Z"),
            null, null, null, null);

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

    private void assertBad(String field, String value, String message) {
        Map<String, String> wire = new LinkedHashMap<>(codec.encode(envelope));
        wire.put(field, value);
        assertThatThrownBy(() -> codec.decode(wire)).isInstanceOf(InvalidEnvelopeException.class)
                .hasMessageContaining(message);
    }
}
