package dev.redrive.worker.stream;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StrictUtf8Test {
    @Test
    void utf8Text_isDecodedAsSent_includingAReplacementCharacterThatWasSent() {
        Map<String, byte[]> body = new LinkedHashMap<>();
        body.put("run", "run-1".getBytes(StandardCharsets.UTF_8));
        body.put("payload", "{\"name\":\"Zoë 東京 🚀\"}".getBytes(StandardCharsets.UTF_8));
        body.put("note", "sent as is: \uFFFD".getBytes(StandardCharsets.UTF_8));
        body.put("empty", null);

        StrictUtf8.Decoded decoded = StrictUtf8.decode(body);

        assertThat(decoded.undecodable()).isEmpty();
        assertThat(decoded.fields()).containsExactly(Map.entry("run", "run-1"),
                Map.entry("payload", "{\"name\":\"Zoë 東京 🚀\"}"), Map.entry("note", "sent as is: \uFFFD"),
                Map.entry("empty", ""));
    }

    @Test
    void bytesThatAreNotUtf8_areNamedWithTheirOffset() {
        Map<String, byte[]> body = new LinkedHashMap<>();
        body.put("run", "run-1".getBytes(StandardCharsets.UTF_8));
        body.put("payload", new byte[]{'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '(', '"', '}'});
        body.put("trace_id", new byte[]{'a', 'b', (byte) 0xED, (byte) 0xA0, (byte) 0x80}); // an encoded surrogate

        StrictUtf8.Decoded decoded = StrictUtf8.decode(body);

        assertThat(decoded.undecodable()).containsExactly("payload (byte 6)", "trace_id (byte 2)");
        assertThat(decoded.fields()).containsEntry("run", "run-1").containsKeys("payload", "trace_id");
    }
}
