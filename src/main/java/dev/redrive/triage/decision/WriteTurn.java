package dev.redrive.triage.decision;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * When a chunk decided beside the one before it may write what chunks share. A batch keeps two chunks in flight: a
 * chunk locks, reads and checks its items and writes its own rows (commands, operation moves, audit lines) while the one
 * before it writes, commits and publishes; it decides its entries (which locks the summary rows entries share) and
 * records the batch's progress only once that one's transactions have ended. So chunks commit in batch order (a durable
 * batch's position never passes an item that is not committed). A chunk whose predecessor failed rolls back, and so
 * does one that reaches its turn after a stop was asked for. A chunk waits for its turn holding its locks only so long
 * ({@link #LOCKED_WAIT}): the chunk before may need one of them.
 */
public final class WriteTurn {
    /**
     * How long a chunk waits for its turn while it holds its items' locks. The chunk before may be waiting for one of
     * them (an item listed in both, or another decision holding items of both), which the database cannot see as a
     * deadlock: past this the chunk lets go of its locks, waits without them, and goes again.
     */
    static final Duration LOCKED_WAIT = Duration.ofSeconds(5);
    private static final BooleanSupplier NEVER = () -> false;

    private final CompletableFuture<Void> before;
    private final CompletableFuture<Void> written;
    private final BooleanSupplier stopped;
    private final Duration lockedWait;
    // Whether this chunk (or an item of it decided again alone) got past its turn: from then on it is writing, and a
    // stop no longer refuses the rest of it.
    private final AtomicBoolean writing;

    private WriteTurn(CompletableFuture<Void> before, CompletableFuture<Void> written, BooleanSupplier stopped,
                      Duration lockedWait, AtomicBoolean writing) {
        this.before = before;
        this.written = written;
        this.stopped = stopped;
        this.lockedWait = lockedWait;
        this.writing = writing;
    }

    /** Thrown at a chunk's turn when the batch ends before it (a stop, a chunk before that did not commit). */
    public static final class StoppedBeforeWriting extends RuntimeException {
        public StoppedBeforeWriting() {
            super("not taken: the batch ended before this chunk's turn to write", null, false, false);
        }
    }

    /** Thrown when a chunk waited {@link #LOCKED_WAIT} for its turn: it rolls back and goes again once it is its turn. */
    static final class WaitedTooLong extends RuntimeException {
        WaitedTooLong() {
            super("waited too long for the chunk before, holding this chunk's locks", null, false, false);
        }
    }

    /** The turn of a batch's first chunk, or of a chunk decided alone: it may write at once. */
    public static WriteTurn first() {
        return first(LOCKED_WAIT);
    }

    /** As {@link #first()}, each chunk waiting at most {@code lockedWait} for its turn while it holds its locks. */
    static WriteTurn first(Duration lockedWait) {
        return new WriteTurn(CompletableFuture.completedFuture(null), new CompletableFuture<>(), NEVER, lockedWait,
                new AtomicBoolean());
    }

    /** This turn, refused at its time to write once {@code stopped} says so. */
    public WriteTurn unlessStopped(BooleanSupplier stopped) {
        return new WriteTurn(before, written, stopped, lockedWait, writing);
    }

    /** The turn of the chunk after this one: it writes once this one has passed its turn on. */
    public WriteTurn next() {
        return new WriteTurn(written, new CompletableFuture<>(), NEVER, lockedWait, new AtomicBoolean());
    }

    /**
     * A turn for the items of this chunk decided again one by one (after a lost race): each waits for the chunk before
     * as this one does, and a stop refuses them only while none of the chunk has got past its turn; passing it on is
     * this one's part.
     */
    WriteTurn within() {
        return new WriteTurn(before, new CompletableFuture<>(), stopped, lockedWait, writing);
    }

    /**
     * Waits, holding the chunk's locks, until the chunk before has written; throws when it failed or the batch ended,
     * so that this chunk's transaction rolls back, and {@link WaitedTooLong} past {@link #LOCKED_WAIT}.
     */
    void await() {
        try {
            before.get(lockedWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new WaitedTooLong();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("not decided: interrupted while waiting for the chunk before", e);
        } catch (ExecutionException e) {
            throw failedBefore(e.getCause());
        }
        if (!writing.get() && stopped.getAsBoolean()) {
            throw new StoppedBeforeWriting();
        }
        writing.set(true);
    }

    /** Waits, holding nothing, until the chunk before has written (after {@link WaitedTooLong}). */
    public void awaitWithoutLocks() {
        try {
            before.join();
        } catch (CompletionException e) {
            throw failedBefore(e.getCause());
        }
    }

    private static RuntimeException failedBefore(Throwable cause) {
        if (cause instanceof StoppedBeforeWriting) {
            return new StoppedBeforeWriting();
        }
        return new IllegalStateException("not decided: the chunk before this one failed (" + cause.getMessage() + ")",
                cause);
    }

    /** This chunk's transactions have ended (committed, or refused item by item): the next chunk may write. */
    public void pass() {
        written.complete(null);
    }

    /** This chunk failed: the next one must not write. Without effect once the turn was passed on. */
    public void fail(Throwable failure) {
        written.completeExceptionally(failure);
    }
}
