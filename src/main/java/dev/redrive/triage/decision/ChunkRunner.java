package dev.redrive.triage.decision;

import io.opentelemetry.context.Context;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Works a batch off chunk by chunk: before each chunk it asks whether to stop (the listener, an interrupt) and waits
 * for the pace; each chunk runs on a thread of its own, so that an interrupt meant to stop the batch never reaches a
 * chunk half-way (a publish interrupted after its commit would leave its redrives for the sweep). A batch therefore
 * stops between chunks, every item of a chunk decided in full or not taken.
 */
final class ChunkRunner implements AutoCloseable {
    private final Pacer pacer;
    private final BatchListener listener;
    private final ExecutorService chunkThread = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "redrive-batch-chunk");
        thread.setDaemon(true);
        return thread;
    });

    ChunkRunner(Pacer pacer, BatchListener listener) {
        this.pacer = pacer;
        this.listener = listener;
    }

    /** Whether a chunk of {@code items} may go now (after its pace); false once a stop was asked for. */
    boolean mayStart(int items) {
        if (listener.stopRequested() || Thread.currentThread().isInterrupted()) {
            return false;
        }
        try {
            pacer.awaitSlots(items);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Decides a chunk on the chunk thread, waiting for it even when interrupted meanwhile (the interrupt is kept). */
    List<DecisionResult> decide(Supplier<List<DecisionResult>> chunk) {
        // The chunk records the operator's own trace, which lives in the caller's context.
        Callable<List<DecisionResult>> work = Context.current().wrap(chunk::get);
        Future<List<DecisionResult>> decided = chunkThread.submit(work);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return decided.get();
                } catch (InterruptedException e) {
                    interrupted = true;
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

    @Override
    public void close() {
        chunkThread.shutdown();
    }
}
