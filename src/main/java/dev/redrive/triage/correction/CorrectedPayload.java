package dev.redrive.triage.correction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.envelope.InvalidEnvelopeException;
import dev.redrive.envelope.JsonPayload;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.json.TriageJson;

import java.util.Iterator;
import java.util.Map;

/**
 * The payload an operator typed for a correction, checked by the wire contract's payload rules and merged with the
 * stored original: a value that is exactly the mask ({@value Redactor#MASK}, what every screen shows in place of a
 * secret) keeps the original's stored value at the same place, so a correction never sends the mask as a password.
 */
public final class CorrectedPayload {
    private CorrectedPayload() {
    }

    /** Why a corrected payload cannot be taken, in one line. */
    public static final class RefusedPayloadException extends RuntimeException {
        RefusedPayloadException(String message) {
            super(message);
        }
    }

    /**
     * The payload to dispatch: {@code text} checked (a JSON object within the wire contract's size limit, storable),
     * with every masked value replaced by the original's.
     *
     * @throws RefusedPayloadException naming what is wrong: not JSON, not an object, too large, or a mask where the
     *                                 original has no value to keep
     */
    public static JsonNode merge(JsonNode original, String text) {
        if (text == null || text.isBlank()) {
            throw new RefusedPayloadException("the corrected payload is empty; expected a JSON object");
        }
        try {
            JsonPayload.parse(text, EnvelopeCodec.DEFAULT_MAX_PAYLOAD_BYTES);
        } catch (InvalidEnvelopeException e) {
            throw new RefusedPayloadException("the corrected " + e.getMessage() + " (expected: one JSON object of at most "
                    + EnvelopeCodec.DEFAULT_MAX_PAYLOAD_BYTES + " bytes that PostgreSQL can store)");
        }
        JsonNode corrected = TriageJson.parse(text);
        return keepMaskedValues(original, corrected, "");
    }

    private static JsonNode keepMaskedValues(JsonNode original, JsonNode corrected, String path) {
        if (corrected.isTextual() && Redactor.MASK.equals(corrected.textValue())) {
            if (original == null || original.isMissingNode()) {
                throw new RefusedPayloadException("the corrected payload holds the mask " + Redactor.MASK + " at "
                        + (path.isEmpty() ? "/" : path) + " where the original has no value to keep; type the value");
            }
            return original.deepCopy();
        }
        if (corrected instanceof ObjectNode object) {
            ObjectNode merged = object.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode before = original == null || !original.isObject() ? null : original.get(field.getKey());
                merged.set(field.getKey(), keepMaskedValues(before, field.getValue(), path + "/" + field.getKey()));
            }
            return merged;
        }
        if (corrected instanceof ArrayNode array) {
            ArrayNode merged = array.arrayNode();
            for (int i = 0; i < array.size(); i++) {
                JsonNode before = original == null || !original.isArray() ? null : original.get(i);
                merged.add(keepMaskedValues(before, array.get(i), path + "/" + i));
            }
            return merged;
        }
        return corrected;
    }
}
