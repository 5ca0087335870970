package dev.redrive.report;

import dev.redrive.triage.redaction.Redactor;
import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.store.Jdbc;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.json.TriageJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.redrive.secret.SecretScanner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

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
            "upstream said {\"reason\": \"bad\", \"client_secret\": \"s3cr3t\"} x",
            "{\"amount\":10,\"password\":\"hunter2hunter2hun",
            "{\"payload\":\"{\\\"token\\\":\\\"abc\\\\\\\"def\\\",\\\"n\\\":1}\"",
            "{\"api_key\": sk_live_X}",
            "{\"password\": [\"a\", \"b\"], \"secret\": {\"x\": 1}, \"token\": 'single",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY----- and -----BEGIN PRIVATE KEY-----\nMIIE",
            "redis://:s3cret@cache:6379 and postgres://app:pw@db/app but https://host:8080/path",
            "keys sk_live_51H, ghp_abc123, xoxb-1-2, AKIAIOSFODNN7EXAMPLE, glpat-xyz, sk-" + "a".repeat(24) + " sk-short",
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig and eyJshort",
            "APIKEY=1 cardnumber=2 x_token_id=3 max_tokens=4 prompt_tokens=5 MYTOKEN=6 ATOKEN=7",
            "password\\\"=x token\\'=y secret=\\\\\"z\\\\\" auth=\\\"q",
            "card 4111 1111 1111 1111x, 4111111111111111111111, 4242-4242-4242-4242 ok");

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

    /** Keys of free text: the database's pattern holds to SecretScanner.isSecretKey, name by name. */
    @Test
    void keysOfFreeText_areSecretInTheDatabaseExactlyWhenTheScannerSaysSo() {
        SecretScanner scanner = SecretScanner.forNames(Redactor.DEFAULT_FIELDS);
        List<String> keys = new ArrayList<>(List.of("password", "Password", "PASSWORD", "userPassword", "userpassword",
                "DB_PASSWORD", "x-api-key", "apiKey", "APIKey", "APIKEY", "api.key", "api__key", "access_token",
                "token_count", "tokens", "mytoken", "myToken", "MYTOKEN", "x_token_id", "secretary", "secret_",
                "_secret", "card-number-hash", "cardNumber", "CARDNUMBER", "card", "number", "authorization",
                "AuthorizationHeader", "proxy.authorization", "tokenS", "tokenx", "9token", "9Token", "t", "toKen"));
        Random random = new Random(7);
        String[] pieces = {"token", "Token", "TOKEN", "api", "Api", "key", "KEY", "card", "Number", "pass", "word",
                "secret", "x", "Y", "9", "_", ".", "-", "s"};
        for (int i = 0; i < 400; i++) {
            StringBuilder key = new StringBuilder();
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
                key.append(pieces[random.nextInt(pieces.length)]);
            }
            keys.add(key.toString());
        }
        String pattern = ns.database().jdbc().queryOne("SELECT secret_key_pattern()", row -> row.getString(1)).orElseThrow();
        List<Boolean> secret = ns.database().jdbc().query(
                "SELECT k ~ ('^' || ? || '$') FROM unnest(CAST(? AS text[])) WITH ORDINALITY AS u (k, n) ORDER BY n",
                row -> row.getBoolean(1), pattern, keys.toArray(String[]::new));
        for (int i = 0; i < keys.size(); i++) {
            assertThat(secret.get(i)).as(keys.get(i)).isEqualTo(scanner.isSecretKey(keys.get(i)));
        }
        for (String name : List.of("password", "userPassword", "DB_PASSWORD", "x-api-key", "apiKey", "access_token",
                "token_count", "card-number-hash", "cardNumber", "Authorization")) {
            assertThat(scanner.isSecretKey(name)).as("a field Redactor masks is secret in free text too: " + name)
                    .isTrue();
        }
    }

    /**
     * Thousands of texts made of the pieces the shapes are made of: the database and the console mask each alike. The
     * seed is fixed, so that a difference found is found again.
     */
    @Test
    void randomTextsOfSecretShapedPieces_areMaskedAlikeByBoth() {
        String[] pieces = {"password", "Password", "token", "TOKEN", "api_key", "apiKey", "x-api-key", "card_number",
                "secret", "Authorization", "tokens", "my", "_", ".", "-", "=", ":", " ", "  ", "\t", "\n", "\"", "'",
                "\\", "\\\"", "\\\\\"", "[", "]", "{", "}", ",", ";", "&", "<", ">", "Bearer ", "bearer", "Basic ",
                "basic", "dXNlcjpwYXNzd29yZA==", "abc", "hunter2", "4111111111111111", "4111 1111 1111 1111",
                "4111-1111-1111-1111", "1234", "5500", "0004", " 4242424242424242", "//", "user", "@", "sk_live_",
                "sk-", "ghp_", "xoxb-", "AKIA", "IOSFODNN7EXAMPLE", "eyJ", "hbGciOiJIUzI1NiJ9", "-----BEGIN ", "RSA ",
                "PRIVATE KEY", "-----", "-----END ", "é", "x", "9", "Token ", "Digest ", "==", "\u00a0", "😀"};
        Random random = new Random(20261129);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            StringBuilder text = new StringBuilder();
            for (int k = 1 + random.nextInt(24); k > 0; k--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            texts.add(text.toString());
        }
        Redactor redactor = Redactor.defaults();
        List<String> masked = ns.database().jdbc().query(
                "SELECT mask_secret_text(t) FROM unnest(CAST(? AS text[])) WITH ORDINALITY AS u (t, n) ORDER BY n",
                row -> row.getString(1), (Object) texts.toArray(String[]::new));
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            assertThat(redactor.redactText(masked.get(i))).as("masked again: " + masked.get(i)).isEqualTo(masked.get(i));
            if (!masked.get(i).equals(redactor.redactText(texts.get(i)))) {
                differ.add(texts.get(i) + "\n  database: " + masked.get(i) + "\n  console:  " + redactor.redactText(texts.get(i)));
            }
        }
        assertThat(differ).as("texts masked differently").isEmpty();
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
