package dev.redrive.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.redrive.config.FileProblem;
import dev.redrive.secret.JsonErrors;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.correction.Corrections;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code redrive OP --payload JSON | --payload-file FILE}: correct and redrive. The operation is replaced by the next
 * logical attempt of its node carrying the corrected payload; a plain redrive stays what it was without these options.
 */
final class CorrectionOptions {
    private static final ObjectReader STRICT = TriageJson.mapper().reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @Option(names = "--payload", paramLabel = "JSON",
            description = "correct and redrive OP with this payload (a JSON object): a new logical attempt with its own "
                    + "operation id and idempotency key; a value that is exactly " + Redactor.MASK
                    + " keeps the stored secret")
    String payload;

    @Option(names = "--payload-file", paramLabel = "FILE",
            description = "as --payload, read from FILE (- reads stdin)")
    String payloadFile;

    boolean given() {
        return payload != null || payloadFile != null;
    }

    /** The corrected payload's text, as typed or read. */
    String text(InputStream stdin) {
        if (payload != null && payloadFile != null) {
            throw new IllegalArgumentException("--payload and --payload-file together; give the corrected payload once");
        }
        if (payload != null) {
            return requireJsonObject(payload, "--payload");
        }
        try {
            return requireJsonObject(payloadFile.equals("-") ? new String(stdin.readAllBytes(), StandardCharsets.UTF_8)
                    : Files.readString(Path.of(payloadFile), StandardCharsets.UTF_8), "--payload-file " + payloadFile);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read --payload-file " + payloadFile + ": " + FileProblem.reading(e)
                    + "; expected a readable file holding one JSON object, or - for stdin");
        }
    }

    /**
     * A payload that is not one JSON object is a typing mistake, bad input as a --result's is (exit 2); what the wire
     * contract asks beyond that (its size, its numbers) is the correction's own check. The line never quotes the
     * payload, which may hold secrets.
     */
    private static String requireJsonObject(String text, String source) {
        String expected = "; expected one JSON object such as {\"amount\":12}";
        JsonNode node;
        try {
            node = STRICT.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + " is not JSON: " + JsonErrors.describe(e) + expected);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(source + " is " + (node == null || node.isMissingNode() ? "empty"
                    : "a JSON " + node.getNodeType().name().toLowerCase(Locale.ROOT)) + ", not an object" + expected);
        }
        return text;
    }

    /** Checks (dry run) or takes the correction, prints it, and returns the exit code. */
    static int run(Corrections corrections, DecisionTarget target, String text, boolean dryRun, String operator,
                   String reason, boolean json, PrintWriter out) {
        CorrectionResult result = dryRun ? corrections.check(target, text)
                : corrections.correct(target, text, operator, reason);
        if (json) {
            DecisionPrinter.json(out, result);
        } else {
            print(out, result, dryRun);
        }
        out.flush();
        return DecisionPrinter.exitCode(result.outcome());
    }

    private static void print(PrintWriter out, CorrectionResult result, boolean everyCheck) {
        DecisionPrinter.print(out, result.operationId(), result.outcome(), result.message(), result.preconditions(),
                everyCheck);
        if (result.diff() != null && (result.outcome().recorded() || everyCheck)) {
            out.println("payload changes (secrets masked):");
            result.diff().lines().forEach(line -> out.println("  " + line));
        }
    }
}
