package dev.redrive.report;

import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks the secret-looking parts of free text such as an error message a tool answered with: the value of any
 * {@code key=value} or {@code key: value} whose key is on the redaction list (quoted or not, with an optional
 * {@code Bearer}/{@code Basic} scheme), bearer and basic credentials wherever they appear, and digit runs that look
 * like a payment card number (13 to 19 digits standing alone or in groups of four, passing the Luhn check, which keeps
 * ids, hashes and timestamps readable).
 */
final class SecretText {
    private static final String SCHEME = "(?:(?i:bearer|basic|token|digest)\\s+)?";
    private static final Pattern KEY_VALUE = Pattern.compile(
            "([\"']?)([A-Za-z][A-Za-z0-9_.-]*)\\1(\\s*[:=]\\s*)(\"[^\"]*\"|'[^']*'|" + SCHEME + "[^\\s,;&\"'<>]+)");
    private static final Pattern BEARER = Pattern.compile("\\b((?i:bearer)\\s+)[A-Za-z0-9._~+/=-]+");
    private static final Pattern BASIC = Pattern.compile("\\b(Basic\\s+)[A-Za-z0-9+/]{8,}={0,2}");
    private static final Pattern CARD = Pattern.compile(
            "(?<![\\w-])(?:\\d{13,19}|\\d{4}([ -])\\d{4}\\1\\d{4}\\1\\d{1,7})(?![\\w-])");

    private final Predicate<String> secretKey;

    SecretText(Predicate<String> secretKey) {
        this.secretKey = secretKey;
    }

    String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String masked = maskSecretValues(text);
        masked = replace(BEARER, masked, m -> m.group(1) + Redactor.MASK);
        masked = replace(BASIC, masked, m -> m.group(1) + Redactor.MASK);
        return replace(CARD, masked, m -> luhn(m.group()) ? Redactor.MASK : m.group());
    }

    /**
     * Masks the values of secret keys. A pair whose key is not secret is passed over only up to its value, since the
     * value may itself hold one ("refused: password=hunter2").
     */
    private String maskSecretValues(String text) {
        Matcher matcher = KEY_VALUE.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        int from = 0;
        while (from < text.length() && matcher.find(from)) {
            if (secretKey.test(matcher.group(2))) {
                String value = matcher.group(4);
                String quote = value.startsWith("\"") || value.startsWith("'") ? value.substring(0, 1) : "";
                out.append(text, copied, matcher.start(4)).append(quote).append(Redactor.MASK).append(quote);
                copied = matcher.end();
                from = matcher.end();
            } else {
                from = matcher.end(3);
            }
        }
        return out.append(text, copied, text.length()).toString();
    }

    private static String replace(Pattern pattern, String text, Function<Matcher, String> replacement) {
        Matcher matcher = pattern.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement.apply(matcher)));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    /** The check digit every payment card number carries. */
    static boolean luhn(String digitsAndSeparators) {
        int sum = 0;
        boolean doubled = false;
        for (int i = digitsAndSeparators.length() - 1; i >= 0; i--) {
            char c = digitsAndSeparators.charAt(i);
            if (!Character.isDigit(c)) {
                continue;
            }
            int digit = c - '0';
            if (doubled) {
                digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
            }
            sum += digit;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }
}
