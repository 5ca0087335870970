package dev.redrive.health;

import dev.redrive.store.Jdbc;

import java.time.Duration;
import java.time.Instant;

/**
 * The DLQ's share of the queue health: open entries, entries new in the last minute and hour, the oldest open one.
 *
 * @param oldestOpen when the oldest open entry entered the DLQ; null when none is open
 */
public record DlqDepth(long open, long newLastMinute, long newLastHour, Instant oldestOpen) {

    // The open depth and the oldest open entry come from the OPEN cells of dlq_summary, which triggers keep exact: a
    // refresh every few seconds never counts the open entries one by one. The last minute and hour are short ranges
    // of dlq_entered_idx.
    private static final String DEPTH = """
            SELECT (SELECT coalesce(sum(entries), 0) FROM dlq_summary WHERE decision_state = 'OPEN') AS open_count,
                   (SELECT count(*) FROM dlq_entries WHERE entered_at >= ?)                      AS last_minute,
                   (SELECT count(*) FROM dlq_entries WHERE entered_at >= ?)                      AS last_hour,
                   (SELECT min(first_seen) FROM dlq_summary WHERE decision_state = 'OPEN')       AS oldest_open
            """;

    /** Reads the depth as of {@code now}. */
    public static DlqDepth read(Jdbc jdbc, Instant now) {
        return jdbc.queryOne(DEPTH, row -> new DlqDepth(row.getLong("open_count"), row.getLong("last_minute"),
                        row.getLong("last_hour"), Jdbc.instant(row, "oldest_open")),
                now.minus(Duration.ofMinutes(1)), now.minus(Duration.ofHours(1))).orElseThrow();
    }
}
