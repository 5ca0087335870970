package dev.redrive.worker.protocol;

import java.time.Duration;

/**
 * How many claimed attempts may wait for a pool thread, from how long the recent calls took. An attempt queued at
 * position {@code q} behind {@code t} threads starts after about {@code q / t} calls have ended, so the queue is as
 * deep as keeps that wait within a tenth of the lease: behind slow calls (fault payloads that time out) it stays a
 * quarter of the pool, so that no lease runs out in the queue when the renewals fall behind; behind calls that answer
 * at once it grows to a whole batch, so that each claim and commit statement carries many operations instead of a
 * handful.
 * <p>
 * The estimate is a decaying maximum: one slow call raises it at once, and it falls back by a thirty-second with each
 * call after it. Until calls have been seen, every call is taken to be as slow as a lease.
 */
final class WaitingAllowance {
    private static final int DECAY_SHIFT = 5;
    private static final int LEASE_SHARE = 10;

    private final int threads;
    private final int floor;
    private final int ceiling;
    private final long budgetNanos;
    private long slowNanos;

    /**
     * @param threads the tool pool's size
     * @param ceiling the most attempts that may wait, however fast the calls (a read batch)
     * @param lease   the lease duration the waiting attempts hold
     */
    WaitingAllowance(int threads, int ceiling, Duration lease) {
        this.threads = threads;
        this.floor = Math.max(1, threads / 4);
        this.ceiling = Math.max(floor, ceiling);
        this.budgetNanos = lease.toNanos() / LEASE_SHARE;
        this.slowNanos = lease.toNanos();
    }

    /** Records how long one call held its pool thread. */
    synchronized void observed(long callNanos) {
        slowNanos = Math.max(Math.max(1, callNanos), slowNanos - (slowNanos >> DECAY_SHIFT));
    }

    /** How many attempts may wait for a thread now. */
    synchronized int allowed() {
        long fits = budgetNanos * threads / slowNanos;
        return (int) Math.max(floor, Math.min(ceiling, fits));
    }

    /** The fewest attempts that may ever wait. */
    int floor() {
        return floor;
    }
}
