package dev.redrive.store.deadletter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.store.StorableText;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of a stream entry as a DLQ entry keeps them: storable whatever they hold (see {@link StorableText}) and
 * at most {@link #LIMIT_BYTES} of field values. A message cut to fit carries one more field, {@value #TRUNCATED},
 * with its full size and the SHA-256 of the fields as received (a JSON object in stream order), so the original can be
 * matched with a copy kept elsewhere.
 */
public final class RawMessage {
    public static final int LIMIT_BYTES = 64 * 1024;
    public static final String TRUNCATED = "_truncated";
    private static final ObjectMapper JSON = new ObjectMapper();

    private RawMessage() {
    }

    public static Map<String, String> kept(Map<String, String> fields) {
        Map<String, String> kept = new LinkedHashMap<>();
        int budget = LIMIT_BYTES;
        boolean cut = false;
        for (Map.Entry<String, String> field : fields.entrySet()) {
            String value = field.getValue() == null ? "" : field.getValue();
            String fitted = fit(value, Math.max(budget, 0));
            cut |= fitted.length() < value.length();
            budget -= fitted.getBytes(StandardCharsets.UTF_8).length;
            kept.put(StorableText.of(field.getKey()), StorableText.of(fitted));
        }
        if (cut) {
            byte[] original = json(fields).getBytes(StandardCharsets.UTF_8);
            kept.put(TRUNCATED, "field values cut to " + LIMIT_BYTES + " bytes; the message was " + original.length
                    + " bytes, SHA-256 " + sha256(original));
        }
        return kept;
    }

    /** The longest prefix of {@code value} within {@code bytes} UTF-8 bytes that does not split a character. */
    private static String fit(String value, int bytes) {
        if (value.length() * 3L <= bytes || value.getBytes(StandardCharsets.UTF_8).length <= bytes) {
            return value;
        }
        int used = 0;
        int end = 0;
        while (end < value.length()) {
            int codePoint = value.codePointAt(end);
            int size = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
            if (used + size > bytes) {
                break;
            }
            used += size;
            end += Character.charCount(codePoint);
        }
        return value.substring(0, end);
    }

    static String json(Map<String, String> fields) {
        try {
            return JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("raw message is not representable as JSON", e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
