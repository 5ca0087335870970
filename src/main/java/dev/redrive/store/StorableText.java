package dev.redrive.store;

/**
 * Text as a PostgreSQL text or jsonb value can hold it. Evidence (an error message, a field of a message that could
 * not be read) is kept whatever it holds: a NUL becomes the visible escape {@code \u0000} and an unpaired surrogate
 * U+FFFD, so that writing the evidence can never fail the statement that records it.
 */
public final class StorableText {
    private StorableText() {
    }

    public static String of(String text) {
        if (text == null || isStorable(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                out.append("\\u0000");
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append('\uFFFD');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * As {@link #of(String)}, and at most {@code maxChars} characters: a longer text is cut (never inside a surrogate
     * pair) and ends with an ellipsis, for a column an index carries, which holds a value of a few kilobytes at most.
     */
    public static String of(String text, int maxChars) {
        String storable = of(text);
        if (storable == null || storable.length() <= maxChars) {
            return storable;
        }
        int end = maxChars - 1;
        if (Character.isHighSurrogate(storable.charAt(end - 1))) {
            end--;
        }
        return storable.substring(0, end) + "\u2026";
    }

    private static boolean isStorable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0 || Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
