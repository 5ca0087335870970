package dev.redrive.console.detail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.report.Redactor;

/** Pretty-prints a payload for the detail pane after the triage core's {@link Redactor} masked what it must. */
public final class PayloadRedaction {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Redactor redactor;

    public PayloadRedaction(Redactor redactor) {
        this.redactor = redactor;
    }

    /** The payload as indented JSON text, redacted. */
    public String pretty(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return "(no payload)";
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(redactor.redact(payload));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot print the payload: " + e.getMessage(), e);
        }
    }
}
