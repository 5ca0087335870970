package dev.redrive.triage.redaction;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class RedactorTest {
    private final Redactor redactor = Redactor.defaults();

    @Test
    void masksListedFieldsAtAnyDepthAndInAnySpelling() {
        JsonNode payload = TriageJson.parse("""
                {"amount": 10, "card_number": "4111 1111 1111 1111", "cardNumber": "4242",
                 "customer": {"password": "hunter2", "name": "Ada"},
                 "headers": [{"Authorization": "Bearer abc"}, {"X-Api-Key": "k-1"}],
                 "access_token": "t-1", "token_count": 3, "note": "keep"}""");

        JsonNode redacted = redactor.redact(payload);

        assertThat(redacted.path("amount").asInt()).isEqualTo(10);
        assertThat(redacted.path("card_number").asText()).isEqualTo(Redactor.MASK);
        assertThat(redacted.path("cardNumber").asText()).isEqualTo(Redactor.MASK);
        assertThat(redacted.path("customer").path("password").asText()).isEqualTo(Redactor.MASK);
        assertThat(redacted.path("customer").path("name").asText()).isEqualTo("Ada");
        assertThat(redacted.path("headers").get(0).path("Authorization").asText()).isEqualTo(Redactor.MASK);
        assertThat(redacted.path("headers").get(1).path("X-Api-Key").asText()).isEqualTo(Redactor.MASK);
        assertThat(redacted.path("access_token").asText()).isEqualTo(Redactor.MASK);
        assertThat(redacted.path("note").asText()).isEqualTo("keep");
        assertThat(payload.path("card_number").asText()).as("the original is left alone").startsWith("4111");
    }

    @Test
    void jsonHeldAsTextInsideAField_isRedactedToo() {
        JsonNode raw = TriageJson.parse("{\"operation_id\":\"r:n:0\",\"payload\":\"{\\\"secret\\\":\\\"s3\\\",\\\"amount\\\":5}\"}");

        JsonNode redacted = redactor.redact(raw);

        assertThat(redacted.path("payload").asText()).contains("\"secret\":\"[redacted]\"").contains("\"amount\":5");
        assertThat(redactor.redactText("{\"password\":\"x\"}")).isEqualTo("{\"password\":\"[redacted]\"}");
        assertThat(redactor.redactText("not json")).isEqualTo("not json");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("freeTextWithSecrets")
    void secretsInFreeText_areMaskedAndTheRestOfTheMessageKept(String text, String masked) {
        assertThat(redactor.redactText(text)).isEqualTo(masked);
    }

    static Stream<Arguments> freeTextWithSecrets() {
        return Stream.of(
                arguments("charge failed: card 4111111111111111 declined, Authorization: Bearer abc.def",
                        "charge failed: card [redacted] declined, Authorization: [redacted]"),
                arguments("login refused for password=hunter2 (retry later)",
                        "login refused for password=[redacted] (retry later)"),
                arguments("upstream said {\"reason\": \"bad\", \"client_secret\": \"s3cr3t\"} x",
                        "upstream said {\"reason\": \"bad\", \"client_secret\": \"[redacted]\"} x"),
                arguments("GET /v1?api_key=k-123&page=2 -> 401 with x-api-key: 'k 9'",
                        "GET /v1?api_key=[redacted]&page=2 -> 401 with x-api-key: '[redacted]'"),
                arguments("proxy sent bearer eyJhbGciOi.J9.x and Basic dXNlcjpwYXNzd29yZA==",
                        "proxy sent bearer [redacted] and Basic [redacted]"),
                arguments("ledger refused: password=hunter2, retry: token=t-1",
                        "ledger refused: password=[redacted], retry: token=[redacted]"),
                arguments("cards 4111 1111 1111 1111 and 5500-0000-0000-0004 refused",
                        "cards [redacted] and [redacted] refused"));
    }

    @Test
    void aValueCutOpen_isMaskedToTheEndOfTheText_whereverTheCutFell() {
        String secret = "Qx7Wv3Zk9P".repeat(1_090);
        for (String text : List.of("{\"amount\":1,\"password\":\"" + secret,
                "{\"body\":\"{\\\"token\\\":\\\"" + secret,
                "{\"note\":\"paid with sk_live_" + secret,
                "{\"api_key\": [\"" + secret, "{\"secret\": {\"x\": \"" + secret, "{'token': '" + secret,
                "-----BEGIN PRIVATE KEY-----\n" + secret)) {
            for (int cut = text.length() - secret.length() + 1; cut <= text.length(); cut += 997) {
                assertThat(redactor.redactText(text.substring(0, cut))).as(text.substring(0, 30) + " cut at " + cut)
                        .doesNotContain("Qx7W").contains(Redactor.MASK);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("secretShapedTokens")
    void secretShapedTokens_areMaskedWhateverTheKey(String text, String masked) {
        assertThat(redactor.redactText(text)).isEqualTo(masked);
    }

    static Stream<Arguments> secretShapedTokens() {
        return Stream.of(
                arguments("keys sk_live_51Habc, ghp_abc123, xoxb-1-2 and AKIAIOSFODNN7EXAMPLE leaked",
                        "keys [redacted], [redacted], [redacted] and [redacted] leaked"),
                arguments("session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln expired", "session [redacted] expired"),
                arguments("cannot reach redis://:s3cret@cache:6379", "cannot reach redis://:[redacted]@cache:6379"),
                arguments("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
                        "-----BEGIN RSA PRIVATE KEY-----[redacted]-----END RSA PRIVATE KEY-----"));
    }

    @Test
    void maskedText_isLeftAsItIs_whenMaskedAgain() {
        String masked = redactor.redactText("password=[a, b] token: Bearer x secret='y' card 4111111111111111");

        assertThat(masked).isEqualTo("password=[redacted] token: [redacted] secret='[redacted]' card [redacted]");
        assertThat(redactor.redactText(masked)).isEqualTo(masked);
    }

    @Test
    void freeTextThatOnlyLooksSecret_isLeftReadable() {
        String text = "stream entry 1700000000003-0 at 1700000000003, trace 3f5a1234567890123456b9, "
                + "order 4111111111111112, basic validation failed, timeout: 5000 ms";

        assertThat(redactor.redactText(text)).isEqualTo(text);
        assertThat(redactor.redactText(null)).isNull();
    }

    @Test
    void textValuesInsideJson_areMaskedAsFreeText() {
        JsonNode history = TriageJson.parse("""
                [{"attempt": 1, "error_message": "gateway said password=hunter2", "trace_id": "4111111111111111x"}]""");

        JsonNode redacted = redactor.redact(history);

        assertThat(redacted.get(0).path("error_message").asText()).isEqualTo("gateway said password=[redacted]");
        assertThat(redacted.get(0).path("trace_id").asText()).isEqualTo("4111111111111111x");
    }

    @Test
    void moreFieldsAddToTheDefaults_neverReplaceThem() {
        Redactor custom = Redactor.defaultsAnd("iban, ssn,,");

        assertThat(custom.fields()).containsExactly("password", "token", "secret", "card_number", "authorization",
                "api_key", "iban", "ssn");
        assertThat(custom.masks("customer_iban")).isTrue();
        assertThat(custom.masks("password")).isTrue();
        assertThat(Redactor.defaultsAnd(" ").fields()).isEqualTo(Redactor.of(List.of("password", "token", "secret",
                "card_number", "authorization", "api_key")).fields());
        assertThat(Redactor.defaultsAnd(null).fields()).isEqualTo(Redactor.defaults().fields());
    }
}
