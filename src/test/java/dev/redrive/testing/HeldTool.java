package dev.redrive.testing;

import dev.redrive.worker.tool.Reconciliation;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.ToolFailure;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tool whose calls wait inside the call until the test lets them go: a call that outlives its lease, one a stopping
 * worker waits for or gives up on, a pool with every thread busy. Once let go, a call goes on to the real tool behind
 * it, or, for a tool of the test's own, answers a fixed result. A call interrupted while held never goes on.
 */
public final class HeldTool implements Tool {
    private final String name;
    private final String schemaVersion;
    private final Tool next;
    private final String answer;
    private final AtomicInteger calls = new AtomicInteger();
    private final Semaphore entered = new Semaphore(0);
    private volatile boolean holdingFirstOnly;
    private volatile boolean lookingUp;
    private final Set<String> answeredKeys = ConcurrentHashMap.newKeySet();
    private volatile CountDownLatch release = new CountDownLatch(1);

    private HeldTool(String name, String schemaVersion, Tool next, String answer) {
        this.name = name;
        this.schemaVersion = schemaVersion;
        this.next = next;
        this.answer = answer;
    }

    /** Holds every call before it reaches {@code tool}. */
    public static HeldTool before(Tool tool) {
        return new HeldTool(tool.name(), tool.schemaVersion(), tool, null);
    }

    /** A tool of the test's own, {@code name} at schema version 1, that answers {@code result} once let go. */
    public static HeldTool answering(String name, String result) {
        return new HeldTool(name, "1", null, result);
    }

    /** Holds only the first call; later calls go straight through. */
    public HeldTool firstCallOnly() {
        holdingFirstOnly = true;
        return this;
    }

    /**
     * Answers look-ups as a remote system that applies a call when it answers it: APPLIED for a key whose call was
     * answered, NOT_APPLIED otherwise. Without it, a tool of the test's own cannot tell.
     */
    public HeldTool lookingUp() {
        lookingUp = true;
        return this;
    }

    /** Whether {@code count} calls have entered the tool (held or not) within {@code within}. */
    public boolean awaitEntered(int count, Duration within) throws InterruptedException {
        return entered.tryAcquire(count, within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether a call has entered the tool within {@code within}. */
    public boolean awaitEntered(Duration within) throws InterruptedException {
        return awaitEntered(1, within);
    }

    /** Lets the held calls go on; calls made from now on go straight through until {@link #holdAgain()}. */
    public HeldTool release() {
        release.countDown();
        return this;
    }

    /** Calls made from now on are held again until the next {@link #release()}, and counted again as they enter. */
    public void holdAgain() {
        release = new CountDownLatch(1);
        entered.drainPermits();
    }

    /** How many calls have entered the tool. */
    public int calls() {
        return calls.get();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String schemaVersion() {
        return schemaVersion;
    }

    @Override
    public String execute(ToolCall call) throws ToolFailure {
        boolean held = calls.getAndIncrement() == 0 || !holdingFirstOnly;
        entered.release();
        long heldSince = System.nanoTime();
        if (held) {
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("call interrupted while held: it never reached the tool", e);
            }
        }
        if (next != null) {
            // A held call stands for a slow remote system, whose request went out at once while the worker kept
            // renewing its lease: the deadline moves on by the time held, as the lease did.
            Duration heldFor = Duration.ofNanos(System.nanoTime() - heldSince);
            return next.execute(call.deadline() == null ? call : new ToolCall(call.operationId(), call.idempotencyKey(),
                    call.attempt(), call.payload(), call.traceId(), call.correlationId(), call.deadline().plus(heldFor)));
        }
        answeredKeys.add(call.idempotencyKey());
        return answer;
    }

    @Override
    public Reconciliation reconcile(String idempotencyKey) {
        if (next != null) {
            return next.reconcile(idempotencyKey);
        }
        if (!lookingUp) {
            return Tool.super.reconcile(idempotencyKey);
        }
        return answeredKeys.contains(idempotencyKey) ? Reconciliation.applied(answer, "answered " + idempotencyKey)
                : Reconciliation.notApplied("no call for " + idempotencyKey + " was answered");
    }
}
