package dev.redrive.triage.decision.batch;

import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.WriteTurn;
import io.opentelemetry.context.Context;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Works a batch off chunk by chunk: before each chunk it asks whether to stop (the listener, an interrupt) and waits
 * for the pace; each chunk runs on a chunk thread, so that an interrupt meant to stop the batch never reaches a chunk
 * half-way (a publish interrupted after its commit would leave its redrives for the sweep). A batch therefore stops
 * between chunks, every item of a chunk decided in full or not taken.
 * <p>
 * Two chunks are in flight at a time ({@link #IN_FLIGHT}), each on a connection of its own: one locks, reads and
 * checks its items while the one before it writes, commits and publishes (the database and this process each have a
 * core to work on instead of taking turns). Their writes are ordered by {@link WriteTurn}s and their results collected
 * in batch order. A stop asked for takes effect before the next write: the chunk writing finishes, a chunk started
 * after it rolls back untouched.
 */
public final class ChunkRunner implements AutoCloseable {
    /** Chunks started and not yet collected, at most: a batch needs as many database connections. */
    public static final int IN_FLIGHT = 2;

    private final Pacer pacer;
    private final BatchListener listener;
    private final ExecutorService chunkThreads = Executors.newFixedThreadPool(IN_FLIGHT, runnable -> {
        Thread thread = new Thread(runnable, "redrive-batch-chunk");
        thread.setDaemon(true);
        return thread;
    });
    private WriteTurn turn = WriteTurn.first();
    // Set by the thread working the batch off (an interrupt), read by the chunk threads at their turn to write.
    private volatile boolean stopping;
    private volatile boolean untaken;

    public ChunkRunner(Pacer pacer, BatchListener listener) {
        this.pacer = pacer;
        this.listener = listener;
    }

    /** Whether a chunk of {@code items} may go now (after its pace); false once a stop was asked for, even meanwhile. */
    public boolean mayStart(int items) {
        if (Thread.currentThread().isInterrupted()) {
            stopping = true;
        }
        if (stopAsked()) {
            return false;
        }
        try {
            pacer.awaitSlots(items);
            // A stop asked while it waited for the pace ends the batch before this chunk.
            return !stopAsked();
        } catch (InterruptedException e) {
            stopping = true;
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether a chunk was started and then not taken, because a stop was asked for before its turn to write. */
    public boolean leftAChunkUntaken() {
        return untaken;
    }

    /** Whether a stop was asked for: by the listener, or an interrupt of the thread working the batch off. */
    public boolean stopAsked() {
        return stopping || listener.stopRequested();
    }

    /**
     * Starts a chunk on a chunk thread with the write turn after the previous chunk's. The turn is passed on when the
     * chunk ends, at the latest (a chunk that passes it earlier, after its commit, lets the next one write sooner).
     */
    public Future<List<DecisionResult>> start(Function<WriteTurn, List<DecisionResult>> chunk) {
        WriteTurn mine = turn.unlessStopped(this::stopAsked);
        turn = mine.next();
        // The chunk records the operator's own trace, which lives in the caller's context.
        Callable<List<DecisionResult>> work = Context.current().wrap(() -> {
            try {
                List<DecisionResult> results = chunk.apply(mine);
                mine.pass();
                return results;
            } catch (WriteTurn.StoppedBeforeWriting e) {
                // Rolled back before it wrote: its items are left as they were, for a resume to take.
                untaken = true;
                mine.fail(e);
                return List.of();
            } catch (RuntimeException | Error e) {
                mine.fail(e);
                throw e;
            }
        });
        return chunkThreads.submit(work);
    }

    /** The results of a chunk started, waiting for them even when interrupted meanwhile (the interrupt is kept). */
    public List<DecisionResult> results(Future<List<DecisionResult>> started) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return started.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                    stopping = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException failure) {
                        throw failure;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits for every chunk started to end, even one whose results nobody collects (a batch that failed before it). */
    @Override
    public void close() {
        chunkThreads.shutdown();
        boolean interrupted = false;
        while (true) {
            try {
                if (chunkThreads.awaitTermination(1, TimeUnit.MINUTES)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
