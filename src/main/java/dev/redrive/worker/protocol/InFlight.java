package dev.redrive.worker.protocol;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** The attempts this worker holds leases for, by operation id, with the stream entry each came from; bounded. */
final class InFlight {
    private final Map<String, String> entryByOperation = new ConcurrentHashMap<>();
    private final Semaphore slots;
    private final int capacity;

    InFlight(int capacity) {
        this.capacity = capacity;
        this.slots = new Semaphore(capacity);
    }

    /** The entry this worker is handling the operation for, or null. */
    String entryOf(String operationId) {
        return entryByOperation.get(operationId);
    }

    boolean tryAdd(String operationId, String entryId) {
        if (!slots.tryAcquire()) {
            return false;
        }
        entryByOperation.put(operationId, entryId);
        return true;
    }

    void done(String operationId) {
        if (entryByOperation.remove(operationId) != null) {
            slots.release();
        }
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
