package dev.redrive.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A clock that tells the database's time: the given clock plus the offset to PostgreSQL's clock last measured. Leases
 * are instants written by one worker and compared by another, so every worker must compare them on one clock: with
 * its own clock 30 s fast, a worker would take over leases that are still live, and one 30 s slow would keep working
 * past a lease it no longer holds. Measuring is one query; {@link #align()} again now and then follows drift.
 */
public final class DatabaseClock extends Clock {
    private static final int SAMPLES = 3;
    private static final String DATABASE_MILLIS = "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint";

    private final Jdbc jdbc;
    private final Clock local;
    private volatile long offsetMillis;

    private DatabaseClock(Jdbc jdbc, Clock local, long offsetMillis) {
        this.jdbc = jdbc;
        this.local = local;
        this.offsetMillis = offsetMillis;
    }

    /** A clock aligned with the database now. */
    public static DatabaseClock aligned(Jdbc jdbc, Clock local) {
        DatabaseClock clock = new DatabaseClock(jdbc, local, 0);
        clock.align();
        return clock;
    }

    /**
     * Measures the offset again: the database's time against the middle of the round trip that read it, from the
     * quickest of a few round trips (a slow one, queued on a busy machine, says little about where its middle is).
     */
    public void align() {
        long bestRoundTrip = Long.MAX_VALUE;
        long bestOffset = offsetMillis;
        for (int sample = 0; sample < SAMPLES; sample++) {
            long before = local.millis();
            long database = jdbc.queryLong(DATABASE_MILLIS);
            long after = local.millis();
            if (after - before < bestRoundTrip) {
                bestRoundTrip = after - before;
                bestOffset = database - (before + after) / 2;
            }
        }
        offsetMillis = bestOffset;
    }

    /** How far the database's clock is ahead of the local one (negative: behind). */
    public Duration offset() {
        return Duration.ofMillis(offsetMillis);
    }

    @Override
    public Instant instant() {
        return local.instant().plusMillis(offsetMillis);
    }

    @Override
    public ZoneId getZone() {
        return local.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new DatabaseClock(jdbc, local.withZone(zone), offsetMillis);
    }
}
