package dev.redrive.console.detail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Pretty-prints a payload for the detail pane after masking values an operator's screen should not show: secrets by
 * field name, and card numbers everywhere except their last four digits.
 */
public final class PayloadRedaction implements UnaryOperator<JsonNode> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> SECRET_WORDS = Set.of("password", "passwd", "secret", "token", "authorization",
            "api_key", "apikey", "private_key", "cvv", "cvc", "ssn", "iban");
    private static final String MASK = "••••";

    @Override
    public JsonNode apply(JsonNode payload) {
        if (payload == null) {
            return null;
        }
        JsonNode copy = payload.deepCopy();
        redact(copy);
        return copy;
    }

    private static void redact(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String name = field.getKey().toLowerCase(Locale.ROOT);
                if (isSecret(name) && field.getValue().isValueNode()) {
                    field.setValue(TextNode.valueOf(MASK));
                } else if (isCard(name) && field.getValue().isValueNode()) {
                    field.setValue(TextNode.valueOf(lastFour(field.getValue().asText())));
                } else {
                    redact(field.getValue());
                }
            }
        } else if (node instanceof ArrayNode array) {
            array.forEach(PayloadRedaction::redact);
        }
    }

    private static boolean isSecret(String name) {
        return SECRET_WORDS.stream().anyMatch(name::contains);
    }

    private static boolean isCard(String name) {
        return name.contains("card_number") || name.equals("pan") || name.contains("cardnumber");
    }

    private static String lastFour(String value) {
        String digits = value.replaceAll("[^0-9]", "");
        return digits.length() <= 4 ? MASK : MASK + " " + digits.substring(digits.length() - 4);
    }

    /** The payload as indented JSON text, redacted. */
    public String pretty(JsonNode payload) {
        if (payload == null || payload.isNull()) {
            return "(no payload)";
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(apply(payload));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot print the payload: " + e.getMessage(), e);
        }
    }
}
