package dev.redrive.triage.query;

/**
 * The order DLQ pages come in. Every DLQ index ends with (entered_at DESC, id DESC), which PostgreSQL scans in either
 * direction, so both orders are keyset-paged on an index.
 */
public enum DlqOrder {
    /** Entered time descending, then id descending: the newest entry first. */
    NEWEST_FIRST,
    /** Entered time ascending, then id ascending: the oldest entry first. */
    OLDEST_FIRST
}
