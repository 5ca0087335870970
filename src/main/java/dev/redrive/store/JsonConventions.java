package dev.redrive.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.redrive.model.TypedDuration;

import java.io.IOException;
import java.time.Duration;

/**
 * The JSON conventions of every jsonb column Redrive writes and of its JSON output: snake_case field names, ISO-8601
 * instants, and durations as ISO-8601 in the unit the text output uses ("P1D" where a line says "1d"; Jackson's own
 * default is a count of seconds in scientific notation, 8.64E+4). The store writes audit details with them, and the
 * triage engine builds its mapper on the same builder.
 */
public final class JsonConventions {
    private static final ObjectMapper COMPACT = builder().build();

    private JsonConventions() {
    }

    public static JsonMapper.Builder builder() {
        return JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .addModule(new JavaTimeModule())
                // Added after the JavaTimeModule, so it takes over that module's Duration serializer.
                .addModule(new SimpleModule().addSerializer(Duration.class, new IsoDurationSerializer()))
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    }

    private static final class IsoDurationSerializer extends StdSerializer<Duration> {
        IsoDurationSerializer() {
            super(Duration.class);
        }

        @Override
        public void serialize(Duration value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            generator.writeString(TypedDuration.iso(value));
        }
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
