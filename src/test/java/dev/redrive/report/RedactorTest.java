package dev.redrive.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void theListIsConfigurable() {
        Redactor custom = Redactor.parse("iban, ssn");

        assertThat(custom.fields()).containsExactly("iban", "ssn");
        assertThat(custom.masks("customer_iban")).isTrue();
        assertThat(custom.masks("password")).isFalse();
        assertThat(Redactor.parse(" ").fields()).isEqualTo(Redactor.of(List.of("password", "token", "secret", "card_number",
                "authorization", "api_key")).fields());
    }
}
