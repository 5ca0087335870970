package dev.redrive.config;

import java.util.Locale;

/**
 * Masks the passwords connection URLs can carry, so that no URL is ever printed with one: the password of a
 * {@code scheme://user:password@host} userinfo, the whole userinfo of a {@code redis://} or {@code rediss://} URI
 * ({@code redis://secret@host} is a password, as Lettuce reads it), and the value of every query parameter named
 * {@code password} or ending in it ({@code sslpassword}), in any case and position. It works on a bare URL as well as
 * on a text holding URLs, such as an error message; everything else is left as it is.
 */
public final class UrlCredentials {
    public static final String MASK = "***";

    private static final String PASSWORD = "password";

    private UrlCredentials() {
    }

    /**
     * The text with every URL-embedded password replaced by {@value #MASK}; null stays null. One pass for the query
     * parameters and one for the userinfo, each reading the text a bounded number of times: an error line can quote
     * anything, a megabyte of {@code a://} included.
     */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        return userinfo(passwordParameters(text));
    }

    /** {@code ?password=...}, {@code &sslpassword=...}: a parameter whose name ends in "password", in any case. */
    private static String passwordParameters(String text) {
        int n = text.length();
        StringBuilder out = new StringBuilder(n);
        int copied = 0;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c != '?' && c != '&' && c != ';') {
                i++;
                continue;
            }
            int nameEnd = i + 1;
            while (nameEnd < n && isParameterNameChar(text.charAt(nameEnd))) {
                nameEnd++;
            }
            if (nameEnd >= n || text.charAt(nameEnd) != '=' || !endsWithPassword(text, i + 1, nameEnd)) {
                i = nameEnd;
                continue;
            }
            int valueEnd = nameEnd + 1;
            while (valueEnd < n && !isParameterValueStop(text.charAt(valueEnd))) {
                valueEnd++;
            }
            if (valueEnd > nameEnd + 1) {
                out.append(text, copied, nameEnd + 1).append(MASK);
                copied = valueEnd;
            }
            i = valueEnd;
        }
        return out.append(text, copied, n).toString();
    }

    private static boolean endsWithPassword(String text, int from, int to) {
        // the name is ASCII (isParameterNameChar), so ignoring case here folds nothing but A-Z
        return to - from >= PASSWORD.length()
                && text.regionMatches(true, to - PASSWORD.length(), PASSWORD, 0, PASSWORD.length());
    }

    private static boolean isParameterNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-';
    }

    private static boolean isParameterValueStop(char c) {
        return c == '&' || c == '#' || isSpace(c);
    }

    /**
     * {@code scheme://userinfo@host}: the userinfo runs up to the authority's last {@code @}, so a password holding an
     * unencoded {@code @} is masked whole.
     */
    private static String userinfo(String text) {
        int n = text.length();
        StringBuilder out = new StringBuilder(n);
        int copied = 0;
        int from = 0;
        while (true) {
            int separator = text.indexOf("://", from);
            if (separator < 0) {
                break;
            }
            int schemeStart = separator;
            while (schemeStart > copied && isSchemeChar(text.charAt(schemeStart - 1))) {
                schemeStart--;
            }
            while (schemeStart < separator && !isLetter(text.charAt(schemeStart))) {
                schemeStart++;
            }
            int authority = separator + 3;
            int end = authority;
            int lastAt = -1;
            while (end < n && !isAuthorityStop(text.charAt(end))) {
                if (text.charAt(end) == '@') {
                    lastAt = end;
                }
                end++;
            }
            if (schemeStart < separator && lastAt > authority) {
                String scheme = text.substring(schemeStart, separator);
                out.append(text, copied, authority).append(maskedUserinfo(scheme, text.substring(authority, lastAt)));
                copied = lastAt;
            }
            from = Math.max(end, separator + 1);
        }
        return out.append(text, copied, n).toString();
    }

    private static String maskedUserinfo(String scheme, String userinfo) {
        int colon = userinfo.indexOf(':');
        if (colon >= 0) {
            return userinfo.substring(0, colon + 1) + MASK;
        }
        return scheme.toLowerCase(Locale.ROOT).startsWith("redis") ? MASK : userinfo;
    }

    private static boolean isSchemeChar(char c) {
        return isLetter(c) || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-';
    }

    private static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static boolean isAuthorityStop(char c) {
        return c == '/' || c == '?' || c == '#' || isSpace(c);
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B';
    }
}
