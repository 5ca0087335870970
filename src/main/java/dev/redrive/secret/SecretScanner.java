package dev.redrive.secret;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Masks the secret-looking parts of free text (an error message, evidence, a payload that is not JSON or was cut) in
 * time linear in its length: each shape is found by one left-to-right scan that tries a start only where a key, a
 * credential or a number can begin, and never reads a stretch of text more than a fixed number of times. The shapes,
 * masked in this order, each on the text the one before left:
 * <ol>
 *     <li>private keys in PEM: the body after {@code -----BEGIN ... PRIVATE KEY-----} up to {@code --} or the end;</li>
 *     <li>{@code key=value} and {@code key: value} pairs whose key holds the words of a secret name as words of its own
 *     (see {@link #isSecretKey}), the key quoted or not: a {@code "..."} value up to its closing quote (JSON's
 *     {@code \"} inside it), a {@code \"...\"} value (JSON held as text in a string) up to its closing {@code \"}, a
 *     {@code '...'} value, a {@code [...]} or {@code {...}} value up to its first closing bracket (masked with its
 *     brackets, since the mask holds a closing one), each of them to the
 *     end of the text when it was cut open; an unquoted value (with an optional Bearer/Basic/Token/Digest scheme) up to
 *     a space, a quote or one of {@code , ; & < >}; masking masked text changes nothing;</li>
 *     <li>the password of a URL's userinfo, {@code //user:password@};</li>
 *     <li>bearer credentials and 5. basic ones ({@code Basic} and eight or more base64 characters) anywhere;</li>
 *     <li value="6">API keys by their well-known prefixes ({@code sk_live_}, {@code ghp_}, {@code xoxb-},
 *     {@code AKIA}..., {@code glpat-}, ...) and JWTs ({@code eyJ...});</li>
 *     <li>card numbers that pass the Luhn check: 13 to 19 digits standing alone, or four groups split by spaces or
 *     dashes.</li>
 * </ol>
 * The database masks what viewers read with the same shapes (migration V262, {@code mask_free_text}); each pass here
 * finds exactly the matches its regular expression there finds: a match starts at the character before it (which
 * the previous match must not have taken) and is the longest one from there.
 */
public final class SecretScanner {
    /** What replaces a masked value. */
    public static final String MASK = "[redacted]";
    /**
     * The secret names masked unless others are configured; the database masks what viewers read by the same list
     * (its {@code secret_field_names()}, held to this one by MaskingAgreementTest).
     */
    public static final List<String> DEFAULT_NAMES = List.of("password", "token", "secret", "card_number",
            "authorization", "api_key");
    private static final SecretScanner DEFAULTS = new SecretScanner(DEFAULT_NAMES);

    private static final String[] SCHEMES = {"bearer", "basic", "token", "digest"};
    /** Prefixes of API keys, each with the number of key characters at least after it. */
    private static final List<Prefix> API_KEY_PREFIXES = List.of(
            new Prefix("sk_live_", 1), new Prefix("sk_test_", 1), new Prefix("rk_live_", 1), new Prefix("rk_test_", 1),
            new Prefix("whsec_", 1), new Prefix("ghp_", 1), new Prefix("gho_", 1), new Prefix("ghu_", 1),
            new Prefix("ghs_", 1), new Prefix("ghr_", 1), new Prefix("github_pat_", 1), new Prefix("glpat-", 1),
            new Prefix("xoxa-", 1), new Prefix("xoxb-", 1), new Prefix("xoxp-", 1), new Prefix("xoxr-", 1),
            new Prefix("xoxs-", 1), new Prefix("xapp-", 1), new Prefix("shpat_", 1), new Prefix("shpss_", 1),
            new Prefix("shpca_", 1), new Prefix("shppa_", 1), new Prefix("sk-", 20), new Prefix("AKIA", 16),
            new Prefix("ASIA", 16), new Prefix("AIza", 30), new Prefix("npm_", 30), new Prefix("SG.", 16),
            new Prefix("eyJ", 8));
    private static final String PEM_BEGIN = "-----BEGIN ";

    private record Prefix(String text, int atLeast) {
    }

    /** The words of each secret name: {@code card_number} is {@code [card, number]}. */
    private final List<String[]> names;

    private SecretScanner(List<String> names) {
        List<String[]> words = new ArrayList<>();
        for (String name : names) {
            String[] split = name.toLowerCase(Locale.ROOT).split("_+");
            List<String> kept = new ArrayList<>();
            for (String word : split) {
                if (!word.isEmpty()) {
                    kept.add(word);
                }
            }
            if (!kept.isEmpty()) {
                words.add(kept.toArray(String[]::new));
            }
        }
        this.names = List.copyOf(words);
    }

    /**
     * A scanner for secret names in snake case ({@code password}, {@code api_key}): a key is secret when it holds one's
     * words in any case, separated by {@code _ . -} or by nothing.
     */
    public static SecretScanner forNames(List<String> names) {
        return new SecretScanner(names);
    }

    /** A scanner for {@link #DEFAULT_NAMES}: for error texts and log lines, made before any configuration is read. */
    public static SecretScanner defaults() {
        return DEFAULTS;
    }

    /** The text with every secret-looking part replaced by {@link #MASK}; null stays null. */
    public String mask(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String masked = privateKeys(text);
        masked = pairs(masked);
        masked = userinfo(masked);
        masked = bearer(masked);
        masked = basic(masked);
        masked = apiKeys(masked);
        return cards(masked);
    }

    /**
     * Whether a key (a run of {@code [A-Za-z0-9_.-]}) is secret: it holds the words of a secret name, in any case and
     * separated by {@code _ . -} or by nothing, preceded by the key's start or a separator (or begun with an upper-case
     * letter) and followed by the key's end, a separator or an upper-case letter. {@code password}, {@code userPassword},
     * {@code x-api-key}, {@code access_token}, {@code token_count}, {@code APIKEY} and {@code x_token_id} are;
     * {@code tokens}, {@code mytoken} and {@code max_tokens} are not.
     */
    public boolean isSecretKey(String key) {
        return secretKey(key, 0, key.length());
    }

    // ---- 1. private keys ---------------------------------------------------------------------------------------

    private static String privateKeys(String text) {
        int n = text.length();
        StringBuilder out = null;
        int copied = 0;
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
            out = append(out, text, copied, body).append(MASK);
            copied = end;
            from = end;
        }
        return finish(out, text, copied);
    }

    private static boolean isPemLabel(char c) {
        return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ';
    }

    // ---- 2. key=value pairs ------------------------------------------------------------------------------------

    private String pairs(String text) {
        int n = text.length();
        StringBuilder out = null;
        int copied = 0;
        int taken = 0; // where the last match ended: a key's preceding character must lie at or after it
        int i = 0;
        while (i < n) {
            if (!isKeyChar(text.charAt(i))) {
                i++;
                continue;
            }
            int keyStart = i;
            int keyEnd = i;
            while (keyEnd < n && isKeyChar(text.charAt(keyEnd))) {
                keyEnd++;
            }
            i = keyEnd;
            boolean bounded = keyStart == 0 ? taken == 0 : keyStart - 1 >= taken;
            if (!bounded || !secretKey(text, keyStart, keyEnd)) {
                continue;
            }
            int valueStart = separatorEnd(text, keyEnd);
            if (valueStart < 0 || valueStart >= n) {
                continue;
            }
            int[] value = value(text, valueStart);
            if (value == null) {
                continue;
            }
            out = append(out, text, copied, value[0]).append(MASK);
            copied = value[1];
            taken = value[1];
            i = value[1];
        }
        return finish(out, text, copied);
    }

    /** Where the value starts after a key ending at {@code at}: past a closing quote, spaces, {@code :} or {@code =}, spaces. */
    private static int separatorEnd(String text, int at) {
        int n = text.length();
        int p = at;
        int q = p;
        while (q < n && text.charAt(q) == '\\') {
            q++;
        }
        if (q < n && (text.charAt(q) == '"' || text.charAt(q) == '\'')) {
            p = q + 1;
        }
        while (p < n && isSpace(text.charAt(p))) {
            p++;
        }
        if (p >= n || text.charAt(p) != ':' && text.charAt(p) != '=') {
            return -1;
        }
        p++;
        while (p < n && isSpace(text.charAt(p))) {
            p++;
        }
        return p;
    }

    /** The masked stretch of a value starting at {@code v}: {from, to}, or null when no value starts there. */
    private static int[] value(String text, int v) {
        int n = text.length();
        char c = text.charAt(v);
        if (c == '"') {
            int j = v + 1;
            while (j < n) {
                char ch = text.charAt(j);
                if (ch == '"') {
                    break;
                }
                j = ch == '\\' ? Math.min(j + 2, n) : j + 1;
            }
            return new int[] {v + 1, j};
        }
        if (c == '\\') {
            int q = v;
            while (q < n && text.charAt(q) == '\\') {
                q++;
            }
            if (q < n && text.charAt(q) == '"') {
                return new int[] {q + 1, escapedQuoteEnd(text, q + 1)};
            }
            if (q < n && text.charAt(q) == '\'') {
                return new int[] {q + 1, endAt(text, '\'', q + 1)};
            }
            return unquoted(text, v);
        }
        if (c == '\'') {
            return new int[] {v + 1, endAt(text, '\'', v + 1)};
        }
        if (c == '[' || c == '{') {
            int close = text.indexOf(c == '[' ? ']' : '}', v + 1);
            return new int[] {v, close < 0 ? n : close + 1};
        }
        if (!isValueChar(c)) {
            return null;
        }
        return unquoted(text, v);
    }

    /**
     * The end of a value opened by backslashes and a quote: the first quote after at most one backslash (a longer run
     * escapes it once more), or the end of the text.
     */
    private static int escapedQuoteEnd(String text, int from) {
        int n = text.length();
        int run = 0;
        for (int j = from; j < n; j++) {
            char ch = text.charAt(j);
            if (ch == '\\') {
                run++;
            } else if (ch == '"' && run <= 1) {
                return j - run;
            } else {
                run = 0;
            }
        }
        return n;
    }

    private static int endAt(String text, char close, int from) {
        int end = text.indexOf(close, from);
        return end < 0 ? text.length() : end;
    }

    private static int[] unquoted(String text, int v) {
        int n = text.length();
        for (String scheme : SCHEMES) {
            int w = v + scheme.length();
            if (w < n && startsWithIgnoringAsciiCase(text, v, scheme) && isSpace(text.charAt(w))) {
                int x = w;
                while (x < n && isSpace(text.charAt(x))) {
                    x++;
                }
                if (x < n && isValueChar(text.charAt(x))) {
                    return new int[] {v, valueRunEnd(text, x)};
                }
            }
        }
        return new int[] {v, valueRunEnd(text, v)};
    }

    private static int valueRunEnd(String text, int from) {
        int end = from;
        while (end < text.length() && isValueTail(text.charAt(end))) {
            end++;
        }
        return end;
    }

    private boolean secretKey(String text, int start, int end) {
        for (int i = start; i < end; i++) {
            char first = text.charAt(i);
            boolean before = i == start || isSeparator(text.charAt(i - 1)) || isUpper(first);
            if (!before) {
                continue;
            }
            for (String[] words : names) {
                int after = wordsEnd(text, i, end, words);
                if (after >= 0 && (after == end || isSeparator(text.charAt(after)) || isUpper(text.charAt(after)))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Where the words end when they start at {@code i} (any case, {@code _ . -} or nothing between them), else -1. */
    private static int wordsEnd(String text, int i, int end, String[] words) {
        int p = i;
        for (int w = 0; w < words.length; w++) {
            if (w > 0) {
                while (p < end && isSeparator(text.charAt(p))) {
                    p++;
                }
            }
            String word = words[w];
            if (p + word.length() > end || !startsWithIgnoringAsciiCase(text, p, word)) {
                return -1;
            }
            p += word.length();
        }
        return p;
    }

    // ---- 3. URL userinfo ---------------------------------------------------------------------------------------

    private static String userinfo(String text) {
        int n = text.length();
        StringBuilder out = null;
        int copied = 0;
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
            out = append(out, text, copied, colon + 1).append(MASK);
            copied = at;
            from = at + 1;
        }
        return finish(out, text, copied);
    }

    private static boolean isUserinfoStop(char c) {
        return c == '/' || c == '@' || isSpace(c);
    }

    // ---- 4. and 5. bearer and basic credentials ----------------------------------------------------------------

    private static String bearer(String text) {
        return credentials(text, "bearer", true, 1);
    }

    private static String basic(String text) {
        return credentials(text, "Basic", false, 8);
    }

    private static String credentials(String text, String scheme, boolean anyCase, int atLeast) {
        int n = text.length();
        StringBuilder out = null;
        int copied = 0;
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
            out = append(out, text, copied, x).append(MASK);
            copied = end;
            taken = end;
            i = end - 1;
        }
        return finish(out, text, copied);
    }

    private static boolean isBearerChar(char c) {
        return isAsciiAlnum(c) || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-';
    }

    private static boolean isBase64Char(char c) {
        return isAsciiAlnum(c) || c == '+' || c == '/';
    }

    // ---- 6. API keys and JWTs ----------------------------------------------------------------------------------

    private static String apiKeys(String text) {
        int n = text.length();
        StringBuilder out = null;
        int copied = 0;
        int taken = 0;
        int runEnd = -1;
        for (int s = 0; s < n; s++) {
            if (!(s == 0 ? taken == 0 : s - 1 >= taken && !isTokenNeighbour(text.charAt(s - 1)))) {
                continue;
            }
            Prefix matched = null;
            for (Prefix prefix : API_KEY_PREFIXES) {
                if (text.startsWith(prefix.text(), s)) {
                    matched = prefix;
                    break;
                }
            }
            if (matched == null) {
                continue;
            }
            if (s >= runEnd) {
                runEnd = s;
                while (runEnd < n && isKeyChar(text.charAt(runEnd))) {
                    runEnd++;
                }
            }
            if (runEnd - (s + matched.text().length()) < matched.atLeast()) {
                continue;
            }
            out = append(out, text, copied, s).append(MASK);
            copied = runEnd;
            taken = runEnd;
            s = runEnd - 1;
        }
        return finish(out, text, copied);
    }

    /** A character a key, a token or a card number cannot start right after. */
    private static boolean isTokenNeighbour(char c) {
        return isAsciiAlnum(c) || c == '_' || c == '-';
    }

    // ---- 7. card numbers ---------------------------------------------------------------------------------------

    private static String cards(String text) {
        int n = text.length();
        StringBuilder out = null;
        int copied = 0;
        int taken = 0;
        for (int s = 0; s < n; s++) {
            if (!isDigit(text.charAt(s))
                    || !(s == 0 ? taken == 0 : s - 1 >= taken && !isTokenNeighbour(text.charAt(s - 1)))) {
                continue;
            }
            int end = cardEnd(text, s);
            if (end < 0) {
                continue;
            }
            if (luhn(text, s, end)) {
                out = append(out, text, copied, s).append(MASK);
                copied = end;
            }
            taken = end;
            s = end - 1;
        }
        return finish(out, text, copied);
    }

    /** The end of a card-shaped number starting at {@code s}, or -1. */
    private static int cardEnd(String text, int s) {
        int n = text.length();
        int digits = digitRun(text, s, 20);
        if (digits >= 13 && digits <= 19) {
            return standsAlone(text, s + digits) ? s + digits : -1;
        }
        if (digits != 4 || s + 4 >= n || text.charAt(s + 4) != ' ' && text.charAt(s + 4) != '-') {
            return -1;
        }
        char separator = text.charAt(s + 4);
        int group = s + 5;
        for (int g = 0; g < 2; g++) {
            if (digitRun(text, group, 5) != 4 || group + 4 >= n || text.charAt(group + 4) != separator) {
                return -1;
            }
            group += 5;
        }
        int last = digitRun(text, group, 8);
        return last >= 1 && last <= 7 && standsAlone(text, group + last) ? group + last : -1;
    }

    private static int digitRun(String text, int from, int cap) {
        int end = from;
        while (end < text.length() && end - from < cap && isDigit(text.charAt(end))) {
            end++;
        }
        return end - from;
    }

    private static boolean standsAlone(String text, int end) {
        return end == text.length() || !isTokenNeighbour(text.charAt(end));
    }

    /** The check digit every payment card number carries (separators are skipped). */
    static boolean luhn(String text, int from, int to) {
        int sum = 0;
        boolean doubled = false;
        for (int i = to - 1; i >= from; i--) {
            char c = text.charAt(i);
            if (!isDigit(c)) {
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

    // ---- characters --------------------------------------------------------------------------------------------

    private static StringBuilder append(StringBuilder out, String text, int from, int to) {
        StringBuilder builder = out == null ? new StringBuilder(text.length() + 16) : out;
        return builder.append(text, from, to);
    }

    private static String finish(StringBuilder out, String text, int copied) {
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }

    private static boolean startsWithIgnoringAsciiCase(String text, int at, String lowerOrMixed) {
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

    private static boolean isKeyChar(char c) {
        return isAsciiAlnum(c) || c == '_' || c == '.' || c == '-';
    }

    private static boolean isSeparator(char c) {
        return c == '_' || c == '.' || c == '-';
    }

    private static boolean isWordChar(char c) {
        return isAsciiAlnum(c) || c == '_';
    }

    private static boolean isAsciiAlnum(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The white space PostgreSQL's {@code [ \t\n\r\f\v]} holds. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B';
    }

    /** A character an unquoted value may hold. */
    private static boolean isValueTail(char c) {
        return !isSpace(c) && c != ',' && c != ';' && c != '&' && c != '"' && c != '\'' && c != '<' && c != '>';
    }

    /** A character an unquoted value may start with: not a quote or an opening bracket either. */
    private static boolean isValueChar(char c) {
        return isValueTail(c) && c != '[' && c != '{';
    }
}
