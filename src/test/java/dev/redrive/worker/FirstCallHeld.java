package dev.redrive.worker;

import dev.redrive.worker.tool.HttpTool;
import dev.redrive.worker.tool.Reconciliation;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.ToolFailure;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The demo charge with its first call held before it reaches the tool until the test lets it go: a call that outlives
 * its lease, or one a stopping worker interrupts (which then never reaches the tool). Later calls go straight through.
 */
final class FirstCallHeld implements Tool {
    private final HttpTool delegate;
    private final AtomicBoolean first = new AtomicBoolean(true);
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    FirstCallHeld(HttpTool delegate) {
        this.delegate = delegate;
    }

    /** Whether the first call has started (and is being held) within the time given. */
    boolean awaitEntered(long seconds) throws InterruptedException {
        return entered.await(seconds, TimeUnit.SECONDS);
    }

    /** Lets the held call go on to the tool. */
    void release() {
        release.countDown();
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public String schemaVersion() {
        return delegate.schemaVersion();
    }

    @Override
    public String execute(ToolCall call) throws ToolFailure {
        if (first.compareAndSet(true, false)) {
            entered.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("call interrupted before it reached the tool", e);
            }
        }
        return delegate.execute(call);
    }

    @Override
    public Reconciliation reconcile(String idempotencyKey) {
        return delegate.reconcile(idempotencyKey);
    }
}
