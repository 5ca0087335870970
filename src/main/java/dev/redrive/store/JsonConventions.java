package dev.redrive.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The JSON conventions of every jsonb column Redrive writes and of its JSON output: snake_case field names, ISO-8601
 * instants. The store writes audit details with them, and the triage engine builds its mapper on the same builder.
 */
public final class JsonConventions {
    private static final ObjectMapper COMPACT = builder().build();

    private JsonConventions() {
    }

    public static JsonMapper.Builder builder() {
        return JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    }

    /** A value as compact JSON text, to bind as jsonb. */
    public static String compact(Object value) {
        try {
            return COMPACT.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not representable as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
