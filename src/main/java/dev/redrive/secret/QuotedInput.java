package dev.redrive.secret;

/**
 * Input quoted in an error message ("tool must match ..., got '...'"), as it may be quoted: its secret-looking parts
 * masked first, then cut to {@value #LIMIT} characters, so that neither a secret a sender put in the wrong field nor
 * a megabyte of it ends up in the message, where it would be stored, logged and shown to viewers.
 */
public final class QuotedInput {
    /** The most characters of input an error message quotes. */
    public static final int LIMIT = 200;

    private QuotedInput() {
    }

    /** {@code 'value'}, masked and cut; null is quoted as nothing: {@code ''}. */
    public static String of(String value) {
        if (value == null) {
            return "''";
        }
        String masked = SecretScanner.defaults().mask(value);
        if (masked.length() <= LIMIT) {
            return "'" + masked + "'";
        }
        int end = Character.isHighSurrogate(masked.charAt(LIMIT - 1)) ? LIMIT - 1 : LIMIT;
        return "'" + masked.substring(0, end) + "'... (" + value.length() + " characters)";
    }
}
