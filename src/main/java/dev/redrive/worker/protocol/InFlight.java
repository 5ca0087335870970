package dev.redrive.worker.protocol;

import dev.redrive.store.operation.Lease;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The attempts this worker holds leases for, by operation id, with the stream entry each came from and the lease as
 * last renewed. Bounded twice: attempts that have not ended (running, or waiting for a pool thread) by the pool's
 * threads and the queue the {@link WaitingAllowance} allows behind them now, and all of them, ended ones waiting for
 * their commit included, by a full commit group more, so that the next batch can be claimed while the last one
 * commits without letting more attempts wait for a pool thread.
 */
final class InFlight {
    record Held(String entryId, Lease lease) {
    }

    private final Map<String, Held> byOperation = new ConcurrentHashMap<>();
    private final Set<String> endedEntries = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition slotsFreed = lock.newCondition();
    private final int threads;
    private final WaitingAllowance waiting;
    private final int unsettledCapacity;
    private int unfinished;
    private int unsettled;

    /**
     * Sized for a tool pool of {@code threads}: a worker claims only what its pool can start soon, the free threads and
     * a queue behind them as deep as the recent calls' durations allow (see {@link WaitingAllowance}). A fixed queue
     * of a whole batch (64 behind 8 threads) let attempts wait behind several rounds of slow calls until their leases
     * ran out whenever the renewals fell behind (a starved or frozen process), and a worker killed with such a queue
     * left all of it waiting for the lease time; a fixed short queue made every claim and commit carry a handful of
     * operations when the calls answer at once.
     */
    static InFlight forPool(int threads, int batchSize, Duration lease) {
        WaitingAllowance waiting = new WaitingAllowance(threads, batchSize, lease);
        return new InFlight(threads, waiting, threads + Math.max(batchSize, waiting.floor()) + Committer.MAX_GROUP);
    }

    private InFlight(int threads, WaitingAllowance waiting, int unsettledCapacity) {
        this.threads = threads;
        this.waiting = waiting;
        this.unsettledCapacity = unsettledCapacity;
    }

    /** The entry this worker is handling the operation for, or null. */
    String entryOf(String operationId) {
        Held held = byOperation.get(operationId);
        return held == null ? null : held.entryId();
    }

    boolean tryAdd(String entryId, Lease lease) {
        lock.lock();
        try {
            if (freeLocked() == 0) {
                return false;
            }
            unfinished++;
            unsettled++;
        } finally {
            lock.unlock();
        }
        byOperation.put(lease.operationId(), new Held(entryId, lease));
        return true;
    }

    /**
     * The attempt of this entry has ended after holding a pool thread for {@code callNanos}, and waits for its commit:
     * its slot among the unfinished ones is free.
     */
    void ended(String entryId, long callNanos) {
        waiting.observed(callNanos);
        ended(entryId);
    }

    /** The attempt of this entry has ended without a call and waits for its commit. */
    void ended(String entryId) {
        if (endedEntries.add(entryId)) {
            release(1, 0);
        }
    }

    /** Frees the slots of this entry's attempt; a later attempt of the same operation keeps its own. */
    void done(String operationId, String entryId) {
        Held held = byOperation.get(operationId);
        // A renewal may replace the entry between the read and the removal: read again until the removal holds.
        while (held != null && held.entryId().equals(entryId)) {
            if (byOperation.remove(operationId, held)) {
                release(endedEntries.remove(entryId) ? 0 : 1, 1);
                return;
            }
            held = byOperation.get(operationId);
        }
    }

    private void release(int unfinishedSlots, int unsettledSlots) {
        lock.lock();
        try {
            unfinished -= unfinishedSlots;
            unsettled -= unsettledSlots;
            slotsFreed.signalAll();
        } finally {
            lock.unlock();
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
    /** When this worker's lease on the operation ends, as last renewed, if it still holds a live one for the entry. */
    Optional<Instant> liveLeaseEnd(String operationId, String entryId, Instant now) {
        Held held = byOperation.get(operationId);
        return held != null && held.entryId().equals(entryId) && now.isBefore(held.lease().expiresAt())
                ? Optional.of(held.lease().expiresAt()) : Optional.empty();
    }

    /** The leases still held, for giving them back on shutdown. */
    List<Lease> leases() {
        return byOperation.values().stream().map(Held::lease).toList();
    }

    /** How many attempts may be claimed now when none is running or waiting for a pool thread. */
    int unfinishedCapacity() {
        return threads + waiting.allowed();
    }

    /** How many more attempts may be claimed now. */
    int free() {
        lock.lock();
        try {
            return freeLocked();
        } finally {
            lock.unlock();
        }
    }

    private int freeLocked() {
        return Math.max(0, Math.min(unfinishedCapacity() - unfinished, unsettledCapacity - unsettled));
    }

    boolean isEmpty() {
        lock.lock();
        try {
            return unsettled == 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits at most {@code wait} until {@code wanted} more attempts may be claimed, so that a claim carries a batch
     * rather than the one slot the last ended attempt freed; returns whether at least one may be claimed then.
     */
    boolean awaitFree(int wanted, Duration wait) throws InterruptedException {
        long remaining = wait.toNanos();
        lock.lock();
        try {
            while (freeLocked() < wanted && remaining > 0) {
                remaining = slotsFreed.awaitNanos(remaining);
            }
            return freeLocked() > 0;
        } finally {
            lock.unlock();
        }
    }
}
