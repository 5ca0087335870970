package dev.redrive.triage.query;

import java.util.Locale;

/**
 * How many entries match a filter: exact, the planner's estimate, or at least a number (a text search stops counting
 * at {@link JdbcDlqQueries#TEXT_COUNT_CAP}).
 */
public record DlqCount(long value, Precision precision) {

    /** How far {@link #value()} can be trusted. */
    public enum Precision {
        EXACT,
        ESTIMATE,
        /** There are this many, and maybe more. */
        AT_LEAST
    }

    public static DlqCount exact(long value) {
        return new DlqCount(value, Precision.EXACT);
    }

    public static DlqCount estimate(long value) {
        return new DlqCount(value, Precision.ESTIMATE);
    }

    public static DlqCount atLeast(long value) {
        return new DlqCount(value, Precision.AT_LEAST);
    }

    public boolean exact() {
        return precision == Precision.EXACT;
    }

    /** "1234", "~1.2M"-style for an estimate, or "10,000+" for a lower bound: text for a status line. */
    public String display() {
        return switch (precision) {
            case EXACT -> Long.toString(value);
            case AT_LEAST -> String.format(Locale.ROOT, "%,d+", value);
            case ESTIMATE -> approximately(value);
        };
    }

    private static String approximately(long value) {
        if (value >= 1_000_000) {
            return String.format(Locale.ROOT, "~%.1fM", value / 1_000_000.0);
        }
        if (value >= 1_000) {
            return String.format(Locale.ROOT, "~%.0fk", value / 1_000.0);
        }
        return "~" + value;
    }
}
