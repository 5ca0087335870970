package dev.redrive.model;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way Redrive writes and reads durations, in the CLI, the tools file, the policies and times before now: a
 * whole number and a unit ({@code 500ms}, {@code 90s}, {@code 30m}, {@code 12h}, {@code 90d}, any case) or ISO-8601
 * ({@code PT10S}, {@code P7D}). Written in the largest unit that divides it, as text or as ISO-8601 for JSON, so that
 * both say the same thing in the same unit and read back as they were.
 */
public final class TypedDuration {
    /** The forms {@link #parse} reads, for the line that tells an operator what was expected. */
    public static final String FORMS = "500ms, 10s, 30m, 24h, 7d or ISO-8601 (PT10S, P7D)";

    private static final Pattern COMPACT = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)", Pattern.CASE_INSENSITIVE);

    private TypedDuration() {
    }

    /** An amount of a unit, as written: "7d" is seven calendar days to a time zone, 168 hours to a duration. */
    public record Compact(long amount, ChronoUnit unit) {
        public Duration duration() {
            return unit.getDuration().multipliedBy(amount);
        }
    }

    /** "30m" as 30 minutes, "PT30M" the same; an {@link IllegalArgumentException} naming {@link #FORMS} otherwise. */
    public static Duration parse(String text) {
        String value = text == null ? "" : text.strip();
        Optional<Compact> compact = compact(value);
        if (compact.isPresent()) {
            return compact.get().duration();
        }
        try {
            return Duration.parse(value.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("expected a duration like " + FORMS + ", got '" + text + "'", e);
        }
    }

    /** The number-and-unit form alone ("30m", not "PT30M"), for the times before now that count calendar days. */
    public static Optional<Compact> compact(String text) {
        Matcher matcher = COMPACT.matcher(text.strip());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        ChronoUnit unit = switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
            case "ms" -> ChronoUnit.MILLIS;
            case "s" -> ChronoUnit.SECONDS;
            case "m" -> ChronoUnit.MINUTES;
            case "h" -> ChronoUnit.HOURS;
            default -> ChronoUnit.DAYS;
        };
        return Optional.of(new Compact(Long.parseLong(matcher.group(1)), unit));
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
