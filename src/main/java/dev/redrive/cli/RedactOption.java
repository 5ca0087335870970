package dev.redrive.cli;

import dev.redrive.triage.redaction.Redactor;
import picocli.CommandLine.Option;

/**
 * What op show and report share: the payload fields they mask, {@link Redactor#DEFAULT_FIELDS} and those named. Named
 * fields add to the defaults, never replace them: masking one more field must not unmask a password.
 */
final class RedactOption {
    @Option(names = "--redact", paramLabel = "FIELDS", description = "more payload fields to mask, comma-separated, "
            + "besides the ones always masked (password,token,secret,card_number,authorization,api_key)")
    String fields;

    Redactor redactor() {
        return Redactor.defaultsAnd(fields);
    }
}
