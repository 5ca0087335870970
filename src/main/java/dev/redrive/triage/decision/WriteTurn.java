package dev.redrive.triage.decision;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;

/**
 * When a chunk decided beside the one before it may write what chunks share. A batch keeps two chunks in flight: a
 * chunk locks, reads and checks its items and writes its own rows (commands, operation moves, audit lines) while the one
 * before it writes, commits and publishes; it decides its entries (which locks the summary rows entries share) and
 * records the batch's progress only once that one's transactions have ended. So chunks commit in batch order (a durable
 * batch's position never passes an item that is not committed), and two chunks never wait for each other's locks. A
 * chunk whose predecessor failed rolls back, and so does one that reaches its turn after a stop was asked for.
 */
final class WriteTurn {
    private static final BooleanSupplier NEVER = () -> false;

    private final CompletableFuture<Void> before;
    private final CompletableFuture<Void> written;
    private final BooleanSupplier stopped;

    private WriteTurn(CompletableFuture<Void> before, CompletableFuture<Void> written, BooleanSupplier stopped) {
        this.before = before;
        this.written = written;
        this.stopped = stopped;
    }

    private WriteTurn(CompletableFuture<Void> before) {
        this(before, new CompletableFuture<>(), NEVER);
    }

    /** Thrown at a chunk's turn to write when a stop was asked for meanwhile: the chunk rolls back untouched. */
    static final class StoppedBeforeWriting extends RuntimeException {
        StoppedBeforeWriting() {
            super("stopped before this chunk's turn to write", null, false, false);
        }
    }

    /** This turn, refused at its time to write once {@code stopped} says so. */
    WriteTurn unlessStopped(BooleanSupplier stopped) {
        return new WriteTurn(before, written, stopped);
    }

    /** The turn of a batch's first chunk, or of a chunk decided alone: it may write at once. */
    static WriteTurn first() {
        return new WriteTurn(CompletableFuture.completedFuture(null));
    }

    /** The turn of the chunk after this one: it writes once this one has passed its turn on. */
    WriteTurn next() {
        return new WriteTurn(written);
    }

    /**
     * A turn for the items of this chunk decided again one by one (after a lost race): each waits for the chunk before
     * as this one does, and none is refused for a stop (the chunk is writing already); passing it on is this one's part.
     */
    WriteTurn within() {
        return new WriteTurn(before);
    }

    /** Waits until the chunk before has written; throws when it failed, so that this chunk's transaction rolls back. */
    void await() {
        try {
            before.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof StoppedBeforeWriting) {
                throw new StoppedBeforeWriting();
            }
            throw new IllegalStateException("not decided: the chunk before this one failed ("
                    + e.getCause().getMessage() + ")", e.getCause());
        }
        if (stopped.getAsBoolean()) {
            throw new StoppedBeforeWriting();
        }
    }

    /** This chunk's transactions have ended (committed, or refused item by item): the next chunk may write. */
    void pass() {
        written.complete(null);
    }

    /** This chunk failed: the next one must not write. Without effect once the turn was passed on. */
    void fail(Throwable failure) {
        written.completeExceptionally(failure);
    }
}
