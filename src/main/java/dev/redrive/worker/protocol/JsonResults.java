package dev.redrive.worker.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Tool results are stored as jsonb: a result that is not JSON is kept as a JSON string. */
final class JsonResults {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonResults() {
    }

    static String asJson(String result) {
        if (result == null || result.isBlank()) {
            return "{}";
        }
        try {
            JSON.readTree(result);
            return result;
        } catch (JsonProcessingException notJson) {
            try {
                return JSON.writeValueAsString(result);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a string is always JSON", e);
            }
        }
    }
}
