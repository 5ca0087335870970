package dev.redrive.worker.protocol;

import dev.redrive.store.operation.Lease;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The attempts this worker holds leases for, by operation id, with the stream entry each came from and the lease as
 * last renewed. Bounded twice: attempts that have not ended (running, or waiting for a pool thread) by one capacity,
 * and all of them, ended ones waiting for their commit included, by a larger one, so that the next batch can be
 * claimed while the last one commits without letting more attempts wait for a pool thread.
 */
final class InFlight {
    /** How many claimed attempts may wait for a thread, per thread of the pool. */
    private static final int THREADS_PER_WAITING_ATTEMPT = 4;

    record Held(String entryId, Lease lease) {
    }

    private final Map<String, Held> byOperation = new ConcurrentHashMap<>();
    private final Set<String> endedEntries = ConcurrentHashMap.newKeySet();
    private final Semaphore unfinishedSlots;
    private final Semaphore unsettledSlots;
    private final int capacity;
    private final int unfinishedCapacity;

    /**
     * Sized for a tool pool of {@code threads}: a worker claims only what its pool can start within a lease, the free
     * threads and a short queue behind them (a quarter of the pool, at least one). With no more attempts waiting than
     * threads, each waits for at most one running call to end before it starts. A queue of a whole batch (64 behind 8
     * threads) let attempts wait behind several rounds of slow calls (fault payloads that time out) until their leases
     * ran out, whenever the renewals fell behind (a starved or frozen process); another worker then took them over and
     * the claim was wasted. A worker killed with such a queue also left all of it waiting for the lease time. The
     * ended attempts waiting for their commit may be a full commit group more.
     */
    static InFlight forPool(int threads) {
        int startable = threads + Math.max(1, threads / THREADS_PER_WAITING_ATTEMPT);
        return new InFlight(startable, startable + Committer.MAX_GROUP);
    }

    /**
     * @param unfinished how many attempts may be running or waiting for a pool thread
     * @param unsettled  how many may be held in all, those waiting for their commit included
     */
    InFlight(int unfinished, int unsettled) {
        if (unsettled < unfinished) {
            throw new IllegalArgumentException("unsettled attempts include the unfinished ones");
        }
        this.capacity = unsettled;
        this.unfinishedCapacity = unfinished;
        this.unfinishedSlots = new Semaphore(unfinished);
        this.unsettledSlots = new Semaphore(unsettled);
    }

    /** The entry this worker is handling the operation for, or null. */
    String entryOf(String operationId) {
        Held held = byOperation.get(operationId);
        return held == null ? null : held.entryId();
    }

    boolean tryAdd(String entryId, Lease lease) {
        if (!unfinishedSlots.tryAcquire()) {
            return false;
        }
        if (!unsettledSlots.tryAcquire()) {
            unfinishedSlots.release();
            return false;
        }
        byOperation.put(lease.operationId(), new Held(entryId, lease));
        return true;
    }

    /** The attempt of this entry has ended and waits for its commit: its slot among the unfinished ones is free. */
    void ended(String entryId) {
        if (endedEntries.add(entryId)) {
            unfinishedSlots.release();
        }
    }

    /** Frees the slots of this entry's attempt; a later attempt of the same operation keeps its own. */
    void done(String operationId, String entryId) {
        Held held = byOperation.get(operationId);
        // A renewal may replace the entry between the read and the removal: read again until the removal holds.
        while (held != null && held.entryId().equals(entryId)) {
            if (byOperation.remove(operationId, held)) {
                if (!endedEntries.remove(entryId)) {
                    unfinishedSlots.release();
                }
                unsettledSlots.release();
                return;
            }
            held = byOperation.get(operationId);
        }
    }

    /** The attempts in flight with their leases as last renewed. */
    List<Held> held() {
        return List.copyOf(byOperation.values());
    }

    /** Records that {@code held}'s lease now lasts until {@code expiresAt}, unless its attempt has ended meanwhile. */
    void renewed(Held held, Instant expiresAt) {
        byOperation.replace(held.lease().operationId(), held,
                new Held(held.entryId(), held.lease().renewedUntil(expiresAt)));
    }

    /** Whether this delivery's attempt still holds its lease at {@code now}, as last renewed. */
    boolean holdsLiveLease(String operationId, String entryId, Instant now) {
        Held held = byOperation.get(operationId);
        return held != null && held.entryId().equals(entryId) && now.isBefore(held.lease().expiresAt());
    }

    /** The leases still held, for giving them back on shutdown. */
    List<Lease> leases() {
        return byOperation.values().stream().map(Held::lease).toList();
    }

    /** How many attempts may be claimed when none is running or waiting for a pool thread. */
    int unfinishedCapacity() {
        return unfinishedCapacity;
    }

    /** How many more attempts may be claimed now. */
    int free() {
        return Math.min(unfinishedSlots.availablePermits(), unsettledSlots.availablePermits());
    }

    boolean isEmpty() {
        return unsettledSlots.availablePermits() == capacity;
    }

    /**
     * Waits at most {@code wait} until {@code wanted} more attempts may be claimed, so that a claim carries a batch
     * rather than the one slot the last ended attempt freed; returns whether at least one may be claimed then.
     */
    boolean awaitFree(int wanted, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        if (unfinishedSlots.tryAcquire(wanted, wait.toNanos(), TimeUnit.NANOSECONDS)) {
            try {
                if (unsettledSlots.tryAcquire(wanted, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    unsettledSlots.release(wanted);
                    return true;
                }
            } finally {
                unfinishedSlots.release(wanted);
            }
        }
        return free() > 0;
    }
}
