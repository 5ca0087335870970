package dev.redrive.envelope;

import java.util.function.IntPredicate;

/**
 * What text fields of a dispatch may hold. Every field ends up in a PostgreSQL text column, which cannot hold NUL, and
 * none of them has a use for control characters or unpaired surrogates: a dispatch carrying one is refused before
 * anything is written, instead of making the statement that records it fail.
 */
final class WireText {
    private WireText() {
    }

    /** Refuses C0 control characters, DEL and unpaired surrogates, naming the field and the first offending offset. */
    static void requirePrintable(String field, String value) {
        int offset = firstUnstorable(value);
        if (offset >= 0) {
            throw new InvalidEnvelopeException(InvalidEnvelopeException.INVALID_TEXT, field
                    + " holds " + describe(value, offset) + " at character " + offset
                    + "; expected text without control characters");
        }
    }

    /** Refuses a value longer than {@code max} characters, naming the field and its length. */
    static void requireAtMost(String field, String value, int max) {
        if (value.length() > max) {
            throw new InvalidEnvelopeException(InvalidEnvelopeException.INVALID_TEXT,
                    field + " is " + value.length() + " characters long; expected at most " + max);
        }
    }

    /**
     * Idempotency keys travel as an HTTP header value ({@code Idempotency-Key}): visible ASCII only, at most 255
     * characters, so that no tool call can fail on the header after the request was half sent.
     */
    static void requireHeaderSafe(String field, String value) {
        requireAtMost(field, value, 255);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new InvalidEnvelopeException(InvalidEnvelopeException.INVALID_TEXT, field + " holds "
                        + describe(value, i) + " at character " + i
                        + "; expected visible ASCII (it is sent as an HTTP header)");
            }
        }
    }

    /** The offset of the first character a text column should not hold (control, DEL, unpaired surrogate), or -1. */
    static int firstUnstorable(String value) {
        return first(value, c -> c < 0x20 || c == 0x7F);
    }

    /**
     * The offset of the first NUL or unpaired surrogate, or -1: what jsonb refuses inside a JSON string. Other control
     * characters are fine there, escaped.
     */
    static int firstUnstorableInJson(String value) {
        return first(value, c -> c == 0);
    }

    private static int first(String value, IntPredicate refused) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (refused.test(c)) {
                return i;
            }
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    static String describe(String value, int offset) {
        return String.format("U+%04X", (int) value.charAt(offset));
    }
}
