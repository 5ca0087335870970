package dev.redrive.triage.query;

import java.util.Locale;

/**
 * How many entries match a filter: exact when counting was cheap, otherwise the planner's estimate.
 */
public record DlqCount(long value, boolean exact) {

    /** "1234" or "~1.2M"-style text for a status line. */
    public String display() {
        if (exact) {
            return Long.toString(value);
        }
        if (value >= 1_000_000) {
            return String.format(Locale.ROOT, "~%.1fM", value / 1_000_000.0);
        }
        if (value >= 1_000) {
            return String.format(Locale.ROOT, "~%.0fk", value / 1_000.0);
        }
        return "~" + value;
    }
}
