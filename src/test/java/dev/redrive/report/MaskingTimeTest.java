package dev.redrive.report;

import dev.redrive.triage.redaction.Redactor;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.redrive.config.UrlCredentials;
import dev.redrive.secret.SecretScanner;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Evidence built to make a masker backtrack (a megabyte of one character, long runs of quotes, backslashes, = and :,
 * dense secrets, deep brackets) is masked by every masking path in a small time budget: the console's and the
 * CLI's (Redactor, SecretScanner), the URL masker of error lines, and the database functions the viewer views call.
 * A path that took quadratic time would need hours for a megabyte.
 */
class MaskingTimeTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int MEGABYTE = 1 << 20;
    /**
     * For one megabyte in the JVM, or {@link #TIMES_PLAIN} times a plain megabyte when the machine is slower than that
     * allows; what it takes here is printed, a few hundred milliseconds at most on an idle machine.
     */
    private static final Duration JAVA_BUDGET = Duration.ofSeconds(2);
    /**
     * For one megabyte in PostgreSQL, through a statement: a megabyte of nothing but secrets (90,000 matches) takes
     * about 1.5 s on a two-core machine shared with builds, a megabyte of one character about 0.15 s.
     */
    private static final Duration DATABASE_BUDGET = Duration.ofSeconds(5);

    private static final Map<String, String> INPUTS = new LinkedHashMap<>();

    @BeforeAll
    static void buildInputs() {
        for (String c : List.of("a", "\"", "\\", "=", ":", "'", "[", "{", "-", "/", "4", " ")) {
            INPUTS.put("one character " + c, fill("", c));
            INPUTS.put("password= then " + c, fill("password=", c));
            INPUTS.put("\"token\": \" then " + c, fill("{\"token\": \"", c));
        }
        INPUTS.put("quotes and backslashes", fill("secret=\\\"", "\\\"\\\\\""));
        INPUTS.put("a= pairs", fill("password ", "a="));
        INPUTS.put("a: pairs", fill("token ", "a: "));
        INPUTS.put("dense secret pairs", fill("", "password=a "));
        INPUTS.put("dense json secrets", fill("", "\"password\":\""));
        INPUTS.put("dense quoted keys", fill("", "'api_key'='"));
        INPUTS.put("dense cards", fill("", "4111111111111111 "));
        INPUTS.put("dense card groups", fill("", "4111 1111 "));
        INPUTS.put("dense userinfo", fill("", "//a:"));
        INPUTS.put("dense url schemes", fill("", "a://"));
        INPUTS.put("dense password parameters", fill("", "&password"));
        INPUTS.put("dense bearer", fill("", "bearer "));
        INPUTS.put("dense basic", fill("", "Basic "));
        INPUTS.put("dense pem", fill("", "-----BEGIN PRIVATE KEY-----"));
        INPUTS.put("dense jwt starts", fill("", "eyJ."));
        INPUTS.put("dense api key prefixes", fill("", "sk-a "));
        INPUTS.put("a long key", fill("", "aB_") + "Token=x");
        INPUTS.put("a long space", "x" + " ".repeat(MEGABYTE) + "password=1");
        INPUTS.put("nested arrays", "[".repeat(MEGABYTE / 2) + "]".repeat(MEGABYTE / 2));
        INPUTS.put("nested objects", fill("", "{\"password\":") + "}");
    }

    /** {@code prefix} followed by {@code piece} repeated to a megabyte. */
    private static String fill(String prefix, String piece) {
        return prefix + piece.repeat((MEGABYTE - prefix.length()) / piece.length());
    }

    @Test
    void theScanner_masksEveryAdversarialMegabyteInItsBudget() {
        SecretScanner scanner = SecretScanner.forNames(Redactor.DEFAULT_FIELDS);
        assertEachWithin(JAVA_BUDGET, "SecretScanner.mask", scanner::mask);
    }

    @Test
    void theRedactor_masksEveryAdversarialMegabyteInItsBudget_asTextAndAsAJsonString() {
        Redactor redactor = Redactor.defaults();
        assertEachWithin(JAVA_BUDGET, "Redactor.redactText", redactor::redactText);
        assertEachWithin(JAVA_BUDGET, "Redactor.redact(json)", text -> redactor.redact(
                (JsonNode) JsonNodeFactory.instance.objectNode().put("payload", text).put(text.substring(0, 1000), 1))
                .toString());
        assertThat(redactor.masks("_".repeat(MEGABYTE) + "x")).isFalse();
    }

    @Test
    void theUrlMaskerOfErrorLines_masksEveryAdversarialMegabyteInItsBudget() {
        assertEachWithin(JAVA_BUDGET, "UrlCredentials.mask", UrlCredentials::mask);
    }

    @Test
    void theDatabaseFunctionsOfTheViewerViews_maskEveryAdversarialMegabyteInTheirBudget() {
        Jdbc jdbc = ns.database().jdbc();
        assertEachWithin(DATABASE_BUDGET, "mask_secret_text", text ->
                jdbc.queryOne("SELECT mask_secret_text(?)", row -> row.getString(1), text).orElseThrow());
        assertEachWithin(DATABASE_BUDGET, "mask_secrets(jsonb)", text ->
                jdbc.queryOne("SELECT mask_secrets(CAST(? AS jsonb))::text", row -> row.getString(1),
                        new Json(JsonNodeFactory.instance.objectNode().put("payload", text).toString())).orElseThrow());
    }

    /** A megabyte of ordinary evidence: what each path's time on the adversarial inputs is held against. */
    private static final String PLAIN = fill("", "{\"order\":\"o-1234\",\"note\":\"left at the door, ring twice\"},");
    /**
     * How many times a plain megabyte an adversarial one may take: a linear path stays within a few times, a
     * quadratic one would take thousands. Held against a baseline of the same run, so a loaded machine slows both.
     */
    private static final int TIMES_PLAIN = 40;

    private static void assertEachWithin(Duration fixedBudget, String path, Function<String, String> mask) {
        long plain = Long.MAX_VALUE;
        for (int run = 0; run < 3; run++) {
            long started = System.nanoTime();
            mask.apply(PLAIN);
            plain = Math.min(plain, System.nanoTime() - started);
        }
        Duration budget = Duration.ofNanos(Math.max(fixedBudget.toNanos(), TIMES_PLAIN * plain));
        List<String> over = new ArrayList<>();
        long slowest = 0;
        String slowestInput = "";
        for (Map.Entry<String, String> input : INPUTS.entrySet()) {
            long started = System.nanoTime();
            String masked = mask.apply(input.getValue());
            long took = System.nanoTime() - started;
            assertThat(masked).as(path + " answered for " + input.getKey()).isNotNull();
            if (took > slowest) {
                slowest = took;
                slowestInput = input.getKey();
            }
            if (took > budget.toNanos()) {
                over.add(input.getKey() + ": " + took / 1_000_000 + " ms");
            }
        }
        System.out.printf("%s: %d megabyte inputs, slowest %d ms (%s), a plain megabyte %d ms, budget %d ms%n", path,
                INPUTS.size(), slowest / 1_000_000, slowestInput, plain / 1_000_000, budget.toMillis());
        assertThat(over).as(path + " over its budget of " + budget.toMillis() + " ms").isEmpty();
    }
}
