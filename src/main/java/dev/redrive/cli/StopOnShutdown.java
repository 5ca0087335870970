package dev.redrive.cli;

import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.durable.DurableBatchListener;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ctrl-C (SIGINT) or a TERM while this process runs a durable batch: the JVM's shutdown waits until the batch has
 * stopped after the chunk in hand and was released as STOPPED, so that {@code redrive --resume} takes it at once
 * instead of after its lease. The chunk in flight commits and publishes whole, or rolls back whole, as at any stop
 * between chunks. The wait is bounded: past {@code patience}, the shutdown goes on and the batch is left to its lease.
 */
final class StopOnShutdown implements AutoCloseable {
    private final AtomicBoolean requested = new AtomicBoolean();
    private final CountDownLatch runEnded = new CountDownLatch(1);
    private final Thread hook;

    private StopOnShutdown(long batchId, PrintWriter err, Duration patience) {
        this.hook = new Thread(() -> {
            requested.set(true);
            err.println("stopping batch " + batchId + " after the chunk in hand");
            err.flush();
            try {
                runEnded.await(patience.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "redrive-batch-" + batchId + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Watches the JVM's shutdown until {@link #close}. */
    static StopOnShutdown install(long batchId, PrintWriter err, Duration patience) {
        return new StopOnShutdown(batchId, err, patience);
    }

    /** {@code listener}, which also asks the batch to stop once the JVM shuts down. */
    DurableBatchListener stopping(DurableBatchListener listener) {
        return new DurableBatchListener() {
            @Override
            public void itemDone(int done, int total, DecisionResult result) {
                listener.itemDone(done, total, result);
            }

            @Override
            public boolean stopRequested() {
                return requested.get() || listener.stopRequested();
            }

            @Override
            public void claimed(DurableBatch batch) {
                listener.claimed(batch);
            }
        };
    }

    /** The run ended and its last line is printed: a shutdown waiting for it goes on; else the hook is dropped. */
    @Override
    public void close() {
        runEnded.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook runs now and returns at once: nothing to remove.
        }
    }
}
