package dev.redrive.worker.protocol;

import dev.redrive.store.operation.Lease;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** The attempts this worker holds leases for, by operation id, with the stream entry each came from; bounded. */
final class InFlight {
    private record Held(String entryId, Lease lease) {
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
        if (held != null && held.entryId().equals(entryId) && byOperation.remove(operationId, held)) {
            slots.release();
        }
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
