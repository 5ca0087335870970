package dev.redrive.secret;

import static dev.redrive.secret.ScanText.startsWithIgnoringAsciiCase;
import static dev.redrive.secret.ScanText.isWordChar;
import static dev.redrive.secret.ScanText.isAsciiAlnum;
import static dev.redrive.secret.ScanText.isSpace;

/** Masking passes 1, 3, 4 and 5 of {@link SecretScanner}: credentials by their own shape, whatever their key. */
final class Credentials {
    private static final String PEM_BEGIN = "-----BEGIN ";

    private Credentials() {
    }

    /** Private keys in PEM: the body after {@code -----BEGIN ... PRIVATE KEY-----} up to {@code --} or the end. */
    static String privateKeys(String text) {
        int n = text.length();
        MaskedCopy masked = new MaskedCopy(text);
        int from = 0;
        while (true) {
            int begin = text.indexOf(PEM_BEGIN, from);
            if (begin < 0) {
                break;
            }
            int label = begin + PEM_BEGIN.length();
            int labelEnd = label;
            while (labelEnd < n && isPemLabel(text.charAt(labelEnd))) {
                labelEnd++;
            }
            if (!text.substring(label, labelEnd).contains("PRIVATE KEY") || !text.startsWith("-----", labelEnd)) {
                from = begin + 1;
                continue;
            }
            int body = labelEnd + 5;
            int end = body;
            while (end < n) {
                if (text.charAt(end) != '-') {
                    end++;
                } else if (end + 1 < n && text.charAt(end + 1) != '-') {
                    end += 2;
                } else {
                    break;
                }
            }
            masked.mask(body, end);
            from = end;
        }
        return masked.result();
    }

    private static boolean isPemLabel(char c) {
        return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ';
    }

    /** The password of a URL's userinfo, {@code //user:password@}. */
    static String userinfo(String text) {
        int n = text.length();
        MaskedCopy masked = new MaskedCopy(text);
        int from = 0;
        while (true) {
            int slashes = text.indexOf("//", from);
            if (slashes < 0) {
                break;
            }
            int colon = slashes + 2;
            while (colon < n && !isUserinfoStop(text.charAt(colon)) && text.charAt(colon) != ':') {
                colon++;
            }
            int at = colon + 1;
            if (colon < n && text.charAt(colon) == ':') {
                while (at < n && !isUserinfoStop(text.charAt(at))) {
                    at++;
                }
            }
            if (colon >= n || text.charAt(colon) != ':' || at == colon + 1 || at >= n || text.charAt(at) != '@') {
                from = slashes + 1;
                continue;
            }
            masked.mask(colon + 1, at);
            from = at + 1;
        }
        return masked.result();
    }

    private static boolean isUserinfoStop(char c) {
        return c == '/' || c == '@' || isSpace(c);
    }

    // ---- 4. and 5. bearer and basic credentials ----------------------------------------------------------------

    /** Bearer credentials anywhere. */
    static String bearer(String text) {
        return credentials(text, "bearer", true, 1);
    }

    /** Basic credentials anywhere: {@code Basic} and eight or more base64 characters. */
    static String basic(String text) {
        return credentials(text, "Basic", false, 8);
    }

    private static String credentials(String text, String scheme, boolean anyCase, int atLeast) {
        int n = text.length();
        MaskedCopy masked = new MaskedCopy(text);
        int taken = 0;
        for (int i = 0; i + scheme.length() < n; i++) {
            boolean named = anyCase ? startsWithIgnoringAsciiCase(text, i, scheme) : text.startsWith(scheme, i);
            if (!named || !(i == 0 ? taken == 0 : i - 1 >= taken && !isWordChar(text.charAt(i - 1)))) {
                continue;
            }
            int x = i + scheme.length();
            if (!isSpace(text.charAt(x))) {
                continue;
            }
            while (x < n && isSpace(text.charAt(x))) {
                x++;
            }
            int end = x;
            if (anyCase) {
                while (end < n && isBearerChar(text.charAt(end))) {
                    end++;
                }
            } else {
                while (end < n && isBase64Char(text.charAt(end))) {
                    end++;
                }
            }
            if (end - x < atLeast) {
                i = x - 1;
                continue;
            }
            if (!anyCase) {
                for (int pad = 0; pad < 2 && end < n && text.charAt(end) == '='; pad++) {
                    end++;
                }
            }
            masked.mask(x, end);
            taken = end;
            i = end - 1;
        }
        return masked.result();
    }

    private static boolean isBearerChar(char c) {
        return isAsciiAlnum(c) || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-';
    }

    private static boolean isBase64Char(char c) {
        return isAsciiAlnum(c) || c == '+' || c == '/';
    }
}
