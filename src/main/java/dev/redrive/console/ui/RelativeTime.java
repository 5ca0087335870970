package dev.redrive.console.ui;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Moments as an operator reads them in a list: how long ago ("3 min ago") while that is what matters, the day and
 * time once it is older; {@link #exact} gives the full moment for a tooltip. No toolkit.
 */
public final class RelativeTime {
    private static final DateTimeFormatter EXACT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS zzz");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm");
    private static final DateTimeFormatter DAY_AND_TIME = DateTimeFormatter.ofPattern("MMM d HH:mm");
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuu-MM-dd");

    private final ZoneId zone;

    public RelativeTime(ZoneId zone) {
        this.zone = zone;
    }

    /** "just now", "42 s ago", "3 min ago", "5 h ago" within a day; then "yesterday 22:31", "Nov 30 22:31", a date. */
    public String since(Instant at, Instant now) {
        Duration age = Duration.between(at, now);
        if (age.isNegative() || age.toSeconds() < 5) {
            return "just now";
        }
        if (age.toMinutes() < 1) {
            return age.toSeconds() + " s ago";
        }
        if (age.toHours() < 1) {
            return age.toMinutes() + " min ago";
        }
        if (age.toHours() < 12) {
            return age.toHours() + " h ago";
        }
        LocalDate day = at.atZone(zone).toLocalDate();
        LocalDate today = now.atZone(zone).toLocalDate();
        if (day.equals(today)) {
            return "today " + TIME.format(at.atZone(zone));
        }
        if (day.equals(today.minusDays(1))) {
            return "yesterday " + TIME.format(at.atZone(zone));
        }
        return day.getYear() == today.getYear() ? DAY_AND_TIME.format(at.atZone(zone)) : DATE.format(at.atZone(zone));
    }

    /** The whole moment, to the millisecond and with the zone. */
    public String exact(Instant at) {
        return EXACT.format(at.atZone(zone));
    }
}
