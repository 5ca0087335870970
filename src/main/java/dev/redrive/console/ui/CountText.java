package dev.redrive.console.ui;

/**
 * A count with its noun as the console writes it: "1 entry", "12 entries". Gluing a plural to every count read
 * "Redrive 1 entries".
 */
public final class CountText {
    private CountText() {
    }

    /** "1 entry", "0 entries", "12 entries". */
    public static String of(long count, String one, String many) {
        return count + " " + (count == 1 ? one : many);
    }
}
