package dev.redrive.secret;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static dev.redrive.secret.ScanText.startsWithIgnoringAsciiCase;
import static dev.redrive.secret.ScanText.isKeyChar;
import static dev.redrive.secret.ScanText.isSeparator;
import static dev.redrive.secret.ScanText.isUpper;
import static dev.redrive.secret.ScanText.isSpace;

/**
 * Masking pass 2 of {@link SecretScanner}: {@code key=value} and {@code key: value} pairs whose key holds the words of a
 * secret name, the value quoted, bracketed or bare as its class comment tells.
 */
final class SecretPairs {
    private static final String[] SCHEMES = {"bearer", "basic", "token", "digest"};

    /** The words of each secret name: {@code card_number} is {@code [card, number]}. */
    private final List<String[]> names;

    SecretPairs(List<String> names) {
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

    /** Whether a key (a run of {@code [A-Za-z0-9_.-]}) holds the words of a secret name: see {@link SecretScanner#isSecretKey}. */
    boolean isSecretKey(String key) {
        return secretKey(key, 0, key.length());
    }

    String mask(String text) {
        int n = text.length();
        MaskedCopy masked = new MaskedCopy(text);
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
            masked.mask(value[0], value[1]);
            taken = value[1];
            i = value[1];
        }
        return masked.result();
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

    /** A character an unquoted value may hold. */
    private static boolean isValueTail(char c) {
        return !isSpace(c) && c != ',' && c != ';' && c != '&' && c != '"' && c != '\'' && c != '<' && c != '>';
    }

    /** A character an unquoted value may start with: not a quote or an opening bracket either. */
    private static boolean isValueChar(char c) {
        return isValueTail(c) && c != '[' && c != '{';
    }
}
