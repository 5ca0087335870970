package dev.redrive.console.dlq;

import java.time.Duration;
import java.time.Instant;

/** The time ranges the filter bar offers: how far back from now entries may have entered the DLQ. */
public enum TimeRange {
    ANY("Any time", null),
    LAST_15_MINUTES("Last 15 minutes", Duration.ofMinutes(15)),
    LAST_HOUR("Last hour", Duration.ofHours(1)),
    LAST_DAY("Last 24 hours", Duration.ofDays(1)),
    LAST_WEEK("Last 7 days", Duration.ofDays(7)),
    LAST_MONTH("Last 30 days", Duration.ofDays(30));

    private final String label;
    private final Duration back;

    TimeRange(String label, Duration back) {
        this.label = label;
        this.back = back;
    }

    /** The earliest entered_at this range lets through, null for any time. */
    public Instant from(Instant now) {
        return back == null ? null : now.minus(back);
    }

    @Override
    public String toString() {
        return label;
    }
}
