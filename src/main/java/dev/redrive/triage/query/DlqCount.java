package dev.redrive.triage.query;

import java.util.Locale;

/**
 * How many entries match a filter: exact, an estimate (the planner's, or a sample's for a common phrase), or at least a
 * number (a text search stops counting at {@link JdbcDlqQueries#TEXT_COUNT_CAP}), which may come with an estimate of
 * the whole from a sample of the table.
 *
 * @param sampled for {@link Precision#AT_LEAST}, how many match by a sample of the table (0 when there is none)
 */
public record DlqCount(long value, Precision precision, long sampled) {

    /** How far {@link #value()} can be trusted. */
    public enum Precision {
        EXACT,
        ESTIMATE,
        /** There are this many, and maybe more. */
        AT_LEAST
    }

    public static DlqCount exact(long value) {
        return new DlqCount(value, Precision.EXACT, 0);
    }

    public static DlqCount estimate(long value) {
        return new DlqCount(value, Precision.ESTIMATE, 0);
    }

    public static DlqCount atLeast(long value) {
        return new DlqCount(value, Precision.AT_LEAST, 0);
    }

    /** At least {@code value} counted, about {@code sampled} by a sample of the table. */
    public static DlqCount atLeast(long value, long sampled) {
        // A sample that finds fewer than were counted tells nothing more than the count.
        return new DlqCount(value, Precision.AT_LEAST, sampled > value ? sampled : 0);
    }

    public boolean exact() {
        return precision == Precision.EXACT;
    }

    /** "1234", "~1.2M"-style for an estimate, "1,000+" for a lower bound, "1,000+ (~89k)" with its sample's estimate. */
    public String display() {
        return switch (precision) {
            case EXACT -> String.format(Locale.ROOT, "%,d", value);
            case AT_LEAST -> String.format(Locale.ROOT, "%,d+", value) + (sampled > 0 ? " (" + approximately(sampled) + ")" : "");
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
