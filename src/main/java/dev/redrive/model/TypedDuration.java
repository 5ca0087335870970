package dev.redrive.model;

import java.time.Duration;
import java.util.Locale;

/**
 * A duration in the largest unit that divides it: as the CLI reads it back (90s, 30m, 12h, 90d), or as ISO-8601 for
 * JSON (PT90S, PT30M, PT12H, P90D), so that both say the same thing in the same unit.
 */
public final class TypedDuration {
    private TypedDuration() {
    }

    /** "90d", "12h", "30m", "90s". */
    public static String text(Duration duration) {
        Whole whole = Whole.of(duration);
        return whole.amount + whole.unit;
    }

    /**
     * "P90D", "PT12H", "PT30M", "PT90S": ISO-8601, which {@link Duration#parse} and the CLI read back. A fraction of a
     * second is kept as {@link Duration#toString} writes it ("PT0.5S").
     */
    public static String iso(Duration duration) {
        if (duration.getNano() != 0) {
            return duration.toString();
        }
        Whole whole = Whole.of(duration);
        return (whole.unit.equals("d") ? "P" : "PT") + whole.amount + whole.unit.toUpperCase(Locale.ROOT);
    }

    private record Whole(long amount, String unit) {
        static Whole of(Duration duration) {
            long seconds = duration.toSeconds();
            if (seconds % 86_400 == 0) {
                return new Whole(seconds / 86_400, "d");
            }
            if (seconds % 3_600 == 0) {
                return new Whole(seconds / 3_600, "h");
            }
            if (seconds % 60 == 0) {
                return new Whole(seconds / 60, "m");
            }
            return new Whole(seconds, "s");
        }
    }
}
