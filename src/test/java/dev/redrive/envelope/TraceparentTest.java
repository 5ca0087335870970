package dev.redrive.envelope;

import dev.redrive.identity.OperationId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TraceparentTest {
    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @ParameterizedTest
    @ValueSource(strings = {VALID, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"})
    void aW3cTraceparent_isKept(String value) {
        assertThat(Traceparent.parse(value)).contains(value);
        assertThat(Traceparent.traceId(value)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "00-not-a-trace", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"})
    void anythingElse_isIgnored(String value) {
        assertThat(Traceparent.parse(value)).isEmpty();
    }

    @Test
    void aLaterVersion_isReadForItsFirstFourFields() {
        assertThat(Traceparent.parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future"))
                .contains("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    }

    @Test
    void aDispatchCarryingOne_roundTripsThroughTheCodec_andOneThatDoesNotParseDecodesAsAbsent() {
        OperationId id = new OperationId("order-1042", "charge", 0);
        DispatchEnvelope envelope = new DispatchEnvelope(id, 1, "demo.charge", "1", id.idempotencyKey(), "{}", null,
                null, null, Instant.parse("2026-11-29T10:00:00Z"), null, null, null, null, VALID);
        EnvelopeCodec codec = new EnvelopeCodec();
        Map<String, String> fields = codec.encode(envelope);
        assertThat(codec.decode(fields).traceparent()).isEqualTo(VALID);
        fields.put("traceparent", "garbage");
        assertThat(codec.decode(fields).traceparent()).isNull();
    }
}
