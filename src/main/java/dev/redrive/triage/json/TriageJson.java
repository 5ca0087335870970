package dev.redrive.triage.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.redrive.store.JsonConventions;
import dev.redrive.store.StoreException;

/**
 * The JSON conventions of DESIGN.md: snake_case field names, ISO-8601 instants. One mapper for the CLI's
 * {@code --json} output, the JSON report and the jsonb columns the triage engine reads.
 */
public final class TriageJson {
    private static final ObjectMapper MAPPER = JsonConventions.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private TriageJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Parses a jsonb column's text; null stays null. */
    public static JsonNode parse(String text) {
        if (text == null) {
            return null;
        }
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new StoreException("a jsonb column held text that is not JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * A JSON object an operator typed (a tool's result): null when blank; otherwise the object, or one line naming
     * {@code what} and the expected form. The CLI's {@code --result} and the console's result fields both read it so.
     */
    public static JsonNode parseObject(String text, String what) {
        if (text == null || text.isBlank()) {
            return null;
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            node = null;
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(what + " must be a JSON object such as {\"charge_id\":\"ch_1\"}, got '"
                    + text.strip() + "'");
        }
        return node;
    }

    /** Writes any value with the snake_case conventions, indented. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** Writes a value as compact JSON text, e.g. to bind as jsonb. */
    public static String compact(Object value) {
        return JsonConventions.compact(value);
    }
}
