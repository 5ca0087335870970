package dev.redrive.console.wizard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.secret.JsonErrors;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.correction.CorrectedPayload;
import dev.redrive.triage.correction.CorrectedPayload.RefusedPayloadException;
import dev.redrive.triage.correction.PayloadDiff;
import dev.redrive.triage.json.TriageJson;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The corrected payload as the operator edits it, against the original as every screen shows it (secrets masked). What
 * is wrong shows as it is typed, in one line: what, where, and what is expected; the same rules the correction is
 * checked by again when it is recorded. A value left as the mask ({@value Redactor#MASK}) keeps the stored secret:
 * the merge happens against the stored payload, never against what the screen shows.
 */
public final class PayloadEditor {
    private final Redactor redactor;
    private JsonNode original;
    private final ReadOnlyStringWrapper originalText = new ReadOnlyStringWrapper("");
    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper changes = new ReadOnlyStringWrapper("");

    /** @param redactor the rules the original was masked by: the diff masks secrets by the same */
    public PayloadEditor(Redactor redactor) {
        this.redactor = redactor;
        text.addListener((obs, was, now) -> check(now));
    }

    /** Starts from the operation's payload as the screen shows it (already masked): the text is the original. */
    public void original(JsonNode masked) {
        original = masked;
        originalText.set(masked == null ? "" : masked.toPrettyString());
        text.set(originalText.get());
        check(text.get());
    }

    private void check(String typed) {
        String notJson = notJson(typed);
        if (notJson != null) {
            problem.set(notJson);
            changes.set("");
            return;
        }
        try {
            PayloadDiff diff = PayloadDiff.between(original, CorrectedPayload.merge(original, typed), redactor);
            problem.set("");
            changes.set(diff.isEmpty() ? "No change yet: edit the payload on the right."
                    : String.join("\n", diff.lines()));
        } catch (RefusedPayloadException e) {
            problem.set(e.getMessage());
            changes.set("");
        }
    }

    /** Where the text stops being JSON, which the wire contract's check does not say: line and column; null when JSON. */
    private static String notJson(String typed) {
        try {
            TriageJson.mapper().readTree(typed);
            return null;
        } catch (JsonProcessingException e) {
            // The parser's own words quote its internals ("[Source: REDACTED ...]"): say the kind of fault and where.
            return "the corrected payload is not JSON: " + JsonErrors.describe(e) + " (expected: one JSON object of at "
                    + "most " + EnvelopeCodec.DEFAULT_MAX_PAYLOAD_BYTES + " bytes)";
        }
    }

    public boolean isValid() {
        return problem.get().isEmpty();
    }

    /** The payload as it was dispatched, secrets masked: the left side of the diff. */
    public String originalText() {
        return originalText.get();
    }

    public ReadOnlyStringProperty originalTextProperty() { return originalText.getReadOnlyProperty(); }
    public StringProperty textProperty() { return text; }
    /** Empty while the text is a JSON object the correction can take; else one line: what, where, what is expected. */
    public ReadOnlyStringProperty problemProperty() { return problem.getReadOnlyProperty(); }
    /** What the correction changes, one line per place ("changed /amount: -5 → 10"), secrets masked on both sides. */
    public ReadOnlyStringProperty changesProperty() { return changes.getReadOnlyProperty(); }
}
