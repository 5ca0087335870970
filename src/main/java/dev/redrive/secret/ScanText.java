package dev.redrive.secret;

/** The character classes the masking passes share. */
final class ScanText {
    private ScanText() {
    }

    static boolean startsWithIgnoringAsciiCase(String text, int at, String lowerOrMixed) {
        if (at + lowerOrMixed.length() > text.length()) {
            return false;
        }
        for (int k = 0; k < lowerOrMixed.length(); k++) {
            if (lowerAscii(text.charAt(at + k)) != lowerAscii(lowerOrMixed.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    private static char lowerAscii(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }

    static boolean isKeyChar(char c) {
        return isAsciiAlnum(c) || c == '_' || c == '.' || c == '-';
    }

    static boolean isSeparator(char c) {
        return c == '_' || c == '.' || c == '-';
    }

    static boolean isWordChar(char c) {
        return isAsciiAlnum(c) || c == '_';
    }

    static boolean isAsciiAlnum(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The white space PostgreSQL's {@code [ \t\n\r\f\v]} holds. */
    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B';
    }

    /** A character an unquoted value may hold. */
    static boolean isValueTail(char c) {
        return !isSpace(c) && c != ',' && c != ';' && c != '&' && c != '"' && c != '\'' && c != '<' && c != '>';
    }

    /** A character an unquoted value may start with: not a quote or an opening bracket either. */
    static boolean isValueChar(char c) {
        return isValueTail(c) && c != '[' && c != '{';
    }

    /** A character a key, a token or a card number cannot start right after. */
    static boolean isTokenNeighbour(char c) {
        return isAsciiAlnum(c) || c == '_' || c == '-';
    }

    /**
     * Whether a key or a card number may start at {@code at}: not inside what an earlier match of the pass took (up to
     * {@code taken}), and at the text's start or right after a character it cannot start after.
     */
    static boolean startsToken(String text, int at, int taken) {
        return at == 0 ? taken == 0 : at - 1 >= taken && !isTokenNeighbour(text.charAt(at - 1));
    }
}
