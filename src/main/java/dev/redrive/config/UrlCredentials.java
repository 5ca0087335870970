package dev.redrive.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks the passwords connection URLs can carry, so that no URL is ever printed with one: the password of a
 * {@code scheme://user:password@host} userinfo, the whole userinfo of a {@code redis://} or {@code rediss://} URI
 * ({@code redis://secret@host} is a password, as Lettuce reads it), and the value of every query parameter named
 * {@code password} or ending in it ({@code sslpassword}), in any case and position. It works on a bare URL as well as
 * on a text holding URLs, such as an error message; everything else is left as it is.
 */
public final class UrlCredentials {
    public static final String MASK = "***";

    /** The userinfo runs up to the authority's last {@code @}, so a password holding an unencoded {@code @} is masked whole. */
    private static final Pattern USERINFO = Pattern.compile("\\b([A-Za-z][A-Za-z0-9+.-]*://)([^\\s/?#]+)@");
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)([?&;][a-z0-9_.-]*password=)[^&#\\s]+");

    private UrlCredentials() {
    }

    /** The text with every URL-embedded password replaced by {@value #MASK}; null stays null. */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        String masked = PASSWORD_PARAMETER.matcher(text).replaceAll("$1" + Matcher.quoteReplacement(MASK));
        return USERINFO.matcher(masked).replaceAll(url -> Matcher.quoteReplacement(
                url.group(1) + maskedUserinfo(url.group(1), url.group(2)) + "@"));
    }

    private static String maskedUserinfo(String scheme, String userinfo) {
        int colon = userinfo.indexOf(':');
        if (colon >= 0) {
            return userinfo.substring(0, colon + 1) + MASK;
        }
        return scheme.toLowerCase(Locale.ROOT).startsWith("redis") ? MASK : userinfo;
    }
}
