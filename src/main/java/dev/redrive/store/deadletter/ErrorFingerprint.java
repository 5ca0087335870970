package dev.redrive.store.deadletter;

import dev.redrive.model.FailureClass;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A stable hash that groups DLQ entries failing the same way: tool, error class, error code and the message with
 * uuids, long hex ids and numbers normalised away, so "charge 41 refused" and "charge 977 refused" group together.
 */
public final class ErrorFingerprint {
    private static final Pattern UUID = Pattern.compile(
            "\\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\b");
    private static final Pattern HEX_ID = Pattern.compile("\\b(?=[0-9a-f]*\\d)[0-9a-f]{8,}\\b");
    private static final Pattern PREFIXED_ID = Pattern.compile("\\b[a-z]+[-_][0-9a-f]{6,}\\b");
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private ErrorFingerprint() {
    }

    public static String of(String tool, FailureClass errorClass, String errorCode, String message) {
        String text = (tool == null ? "" : tool) + "|" + errorClass.name() + "|" + (errorCode == null ? "" : errorCode)
                + "|" + normalise(message);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** The message with what varies between occurrences of the same failure replaced by placeholders. */
    public static String normalise(String message) {
        if (message == null) {
            return "";
        }
        String text = message.toLowerCase(Locale.ROOT);
        text = UUID.matcher(text).replaceAll("<uuid>");
        text = PREFIXED_ID.matcher(text).replaceAll("<id>");
        text = HEX_ID.matcher(text).replaceAll("<id>");
        text = NUMBER.matcher(text).replaceAll("<n>");
        return SPACES.matcher(text).replaceAll(" ").strip();
    }
}
