package dev.redrive.cli;

import dev.redrive.triage.redaction.Redactor;
import picocli.CommandLine.Option;

/** What op show and report share: the payload fields they mask, {@link Redactor#DEFAULT_FIELDS} unless named. */
final class RedactOption {
    @Option(names = "--redact", paramLabel = "FIELDS", description = "payload fields to mask, comma-separated (default: "
            + "password,token,secret,card_number,authorization,api_key)")
    String fields;

    Redactor redactor() {
        return Redactor.parse(fields);
    }
}
