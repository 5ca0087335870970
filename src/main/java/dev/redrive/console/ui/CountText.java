package dev.redrive.console.ui;

import java.util.Locale;

/**
 * A count with its noun as the console writes it: "1 entry", "12 entries". Gluing a plural to every count read
 * "Redrive 1 entries".
 */
public final class CountText {
    private CountText() {
    }

    /** "1 entry", "0 entries", "12,345 entries". */
    public static String of(long count, String one, String many) {
        return number(count) + " " + (count == 1 ? one : many);
    }

    /** A count as operators read it at a glance: 9,199,447 rather than 9199447. */
    public static String number(long count) {
        return String.format(Locale.ROOT, "%,d", count);
    }
}
