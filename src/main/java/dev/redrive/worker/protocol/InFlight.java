package dev.redrive.worker.protocol;

import dev.redrive.store.operation.Lease;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The attempts this worker holds leases for, by operation id, with the stream entry each came from and the lease as
 * last renewed; bounded.
 */
final class InFlight {
    record Held(String entryId, Lease lease) {
    }

    private final Map<String, Held> byOperation = new ConcurrentHashMap<>();
    private final Semaphore slots;
    private final int capacity;

    InFlight(int capacity) {
        this.capacity = capacity;
        this.slots = new Semaphore(capacity);
    }

    /** The entry this worker is handling the operation for, or null. */
    String entryOf(String operationId) {
        Held held = byOperation.get(operationId);
        return held == null ? null : held.entryId();
    }

    boolean tryAdd(String entryId, Lease lease) {
        if (!slots.tryAcquire()) {
            return false;
        }
        byOperation.put(lease.operationId(), new Held(entryId, lease));
        return true;
    }

    /** Frees the slot of this entry's attempt; a later attempt of the same operation keeps its own slot. */
    void done(String operationId, String entryId) {
        Held held = byOperation.get(operationId);
        // A renewal may replace the entry between the read and the removal: read again until the removal holds.
        while (held != null && held.entryId().equals(entryId)) {
            if (byOperation.remove(operationId, held)) {
                slots.release();
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

    int free() {
        return slots.availablePermits();
    }

    boolean isEmpty() {
        return slots.availablePermits() == capacity;
    }

    /** Waits until at least one slot is free, at most {@code wait}. */
    boolean awaitFree(Duration wait) throws InterruptedException {
        if (slots.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
            slots.release();
            return true;
        }
        return false;
    }
}
