package dev.redrive.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.store.Jdbc;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database masks what viewers read by the rules the console masks by: the same inputs through {@link Redactor} and
 * through the migration's SQL functions give the same text.
 */
class MaskingAgreementTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final List<String> TEXTS = List.of(
            "",
            "internal error from demo.charge",
            "refused: password=hunter2, user=bob",
            "note=password=hunter2 (a pair inside the value of another)",
            "login refused for password = \"quoted value\" and secret='single quoted'",
            "Authorization: Bearer abc.def-ghi retry later",
            "authorization=Digest username=x realm=y",
            "token: Token abc; access_token=abc;refresh_token=def;tokens=5;mytoken=kept;my_token=gone",
            "SECRET_KEY=abc DB_PASSWORD: hunter2 userPassword=abc clientSecret: s3 apiKey=k1 x-api-key: 'k 9'",
            "GET /v1?api_key=k-123&page=2 -> 401",
            "\"password\": \"in quotes\", 'api_key': 'k-2', password=",
            "proxy sent bearer eyJhbGciOi.J9.x and Basic dXNlcjpwYXNzd29yZA== but basic dXNlcjpwYXNzd29yZA== stays",
            "card 4111 1111 1111 1111 declined, also 4111-1111-1111-1111 and 4242424242424242",
            "ids 4111111111111112, 12345678901234567890, x4111111111111111, 4111 1111-1111 1111, 4111111111111111x",
            "pässword=x Ünïcode 4111111111111111 ümlaut_token=y",
            "tabs\tpassword:\thunter2\nnext line token=t",
            "{\"error\":\"card 4242424242424242\",\"password\":\"x\",\"n\":1,\"ok\":true,\"none\":null}",
            "  [{\"token\":\"a\"},1,true,null,\"secret=s\"]  ",
            "{\"nested\":\"{\\\"secret\\\":\\\"s\\\",\\\"b\\\":[\\\"Bearer t\\\"]}\",\"é\":\"\\n\\u0001/\"}",
            "{not json, password=hunter2}",
            "{\"a\":1} trailing {\"password\":\"x\"}",
            "upstream said {\"reason\": \"bad\", \"client_secret\": \"s3cr3t\"} x");

    private static final List<String> PAYLOADS = List.of(
            "{\"amount\":10.5,\"currency\":\"EUR\",\"card_number\":\"4111 1111 1111 1111\",\"note\":\"gift\"}",
            "{\"customer\":{\"profile\":{\"auth\":[{\"password\":\"hunter2\"},{\"pin\":\"1234\"}]}},\"apiKey\":\"k\"}",
            "{\"headers\":{\"Authorization\":\"Bearer t\",\"X-Trace\":\"abc\"},\"log\":\"sent token=t-1 for 4242424242424242\"}",
            "{\"raw\":\"{\\\"token\\\":\\\"t\\\",\\\"n\\\":1}\",\"list\":[\"4111111111111111\",\"ok\",7,null,false]}",
            "[{\"secret\":{\"deep\":1}},\"plain\",[]]",
            "{}",
            "\"password=hunter2 as a bare string\"",
            "42");

    @Test
    void theDatabaseKeepsTheConsolesListOfSecretFieldNames() {
        String[] listed = ns.database().jdbc().queryOne("SELECT secret_field_names()",
                row -> (String[]) row.getArray(1).getArray()).orElseThrow();

        assertThat(Arrays.asList(listed)).containsExactlyElementsOf(Redactor.DEFAULT_FIELDS);
    }

    @Test
    void fieldNames_areSecretInTheDatabaseExactlyWhenTheConsoleMasksThem() {
        Redactor redactor = Redactor.defaults();
        for (String name : List.of("password", "Password", "userPassword", "DB_PASSWORD", "x-api-key", "apiKey", "APIKey",
                "api.key", "access_token", "token_count", "tokens", "mytoken", "secret", "secretary", "card_number",
                "cardNumber", "card-number-hash", "Authorization", "proxy_authorization_header", "pin", "", "__token__")) {
            boolean secret = ns.database().jdbc().queryOne("SELECT is_secret_key(?)", row -> row.getBoolean(1), name)
                    .orElseThrow();
            assertThat(secret).as(name).isEqualTo(redactor.masks(name));
        }
    }

    @Test
    void freeTextAndJsonHeldAsText_areMaskedAlikeByBoth() {
        Redactor redactor = Redactor.defaults();
        Jdbc jdbc = ns.database().jdbc();
        for (String text : TEXTS) {
            String masked = jdbc.queryOne("SELECT mask_secret_text(?)", row -> row.getString(1), text).orElseThrow();
            assertThat(masked).as(text).isEqualTo(redactor.redactText(text));
        }
        assertThat(jdbc.queryOne("SELECT mask_secret_text(NULL) IS NULL", row -> row.getBoolean(1))).contains(true);
    }

    @Test
    void jsonColumns_areMaskedAlikeByBoth_atAnyDepth() {
        Redactor redactor = Redactor.defaults();
        for (String payload : PAYLOADS) {
            String masked = ns.database().jdbc().queryOne("SELECT mask_secrets(CAST(? AS jsonb))::text",
                    row -> row.getString(1), payload).orElseThrow();
            JsonNode expected = redactor.redact(TriageJson.parse(payload));
            assertThat(TriageJson.parse(masked)).as(payload).isEqualTo(expected);
        }
    }
}
