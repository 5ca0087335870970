package dev.redrive.secret;

import static dev.redrive.secret.ScanText.isDigit;
import static dev.redrive.secret.ScanText.isTokenNeighbour;
import static dev.redrive.secret.ScanText.startsToken;

/**
 * Masking pass 7 of {@link SecretScanner}: card numbers that pass the Luhn check, 13 to 19 digits standing alone or
 * four groups split by spaces or dashes.
 */
final class CardNumbers {
    private CardNumbers() {
    }

    static String mask(String text) {
        int n = text.length();
        MaskedCopy masked = new MaskedCopy(text);
        int taken = 0;
        for (int s = 0; s < n; s++) {
            if (!isDigit(text.charAt(s)) || !startsToken(text, s, taken)) {
                continue;
            }
            int end = cardEnd(text, s);
            if (end < 0) {
                continue;
            }
            if (luhn(text, s, end)) {
                masked.mask(s, end);
            }
            taken = end;
            s = end - 1;
        }
        return masked.result();
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
    private static boolean luhn(String text, int from, int to) {
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
}
