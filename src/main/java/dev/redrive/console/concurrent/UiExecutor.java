package dev.redrive.console.concurrent;

import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.config.UrlCredentials;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;

import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The one way the console runs database and Redis work: off the FX thread on a bounded pool, with the result (or the
 * failure, naming what failed) handed back on the FX thread. {@link #inline()} runs everything on the caller's
 * thread, so view-models can be tested without a toolkit.
 */
public final class UiExecutor implements AutoCloseable {
    private final Executor background;
    private final ExecutorService pool;
    private final Executor ui;
    private final ReadOnlyIntegerWrapper running = new ReadOnlyIntegerWrapper(0);
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile Consumer<TaskFailure> failureSink = failure -> { };

    private UiExecutor(Executor background, ExecutorService pool, Executor ui) {
        this.background = background;
        this.pool = pool;
        this.ui = ui;
    }

    /** A pool of {@code threads} daemon threads with a bounded queue; callbacks run on the FX application thread. */
    public static UiExecutor forFx(int threads) {
        return withCallbacksOn(Platform::runLater, threads);
    }

    /** A bounded pool whose callbacks run on {@code ui}. */
    public static UiExecutor withCallbacksOn(Executor ui, int threads) {
        AtomicInteger counter = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(256), runnable -> {
            Thread thread = new Thread(runnable, "console-work-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }, new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return new UiExecutor(pool, pool, ui);
    }

    /** Runs work and callbacks on the calling thread: for view-model tests. */
    public static UiExecutor inline() {
        return new UiExecutor(Runnable::run, null, Runnable::run);
    }

    /** Where failures go that the caller did not handle itself (the status bar). Called on the UI thread. */
    public void onFailure(Consumer<TaskFailure> sink) {
        this.failureSink = Objects.requireNonNull(sink);
    }

    /** Hands a failure to the failure sink; for callers that handled a failure partly themselves. */
    public void report(TaskFailure failure) {
        failureSink.accept(failure);
    }

    /** Runs {@code update} on the UI thread: progress reported from inside a background task. */
    public void onUi(Runnable update) {
        ui.execute(update);
    }

    /** How many tasks are running or queued; changes on the UI thread. */
    public ReadOnlyIntegerProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    /** Runs {@code work} in the background; {@code onSuccess} gets its result on the UI thread. */
    public <T> Job submit(String what, Callable<T> work, Consumer<? super T> onSuccess) {
        return submit(what, work, onSuccess, this::report);
    }

    /**
     * Runs {@code work} in the background; exactly one of the callbacks runs on the UI thread unless the job is
     * cancelled first.
     */
    public <T> Job submit(String what, Callable<T> work, Consumer<? super T> onSuccess,
                          Consumer<TaskFailure> onFailure) {
        Job job = new Job();
        changeRunning(+1);
        Runnable task = () -> {
            T result;
            try {
                result = work.call();
            } catch (Throwable error) {
                if (error instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                TaskFailure failure = new TaskFailure(what, error);
                ui.execute(() -> {
                    changeRunning(-1);
                    if (!job.isCancelled()) {
                        onFailure.accept(failure);
                    }
                });
                return;
            }
            ui.execute(() -> {
                changeRunning(-1);
                if (!job.isCancelled()) {
                    onSuccess.accept(result);
                }
            });
        };
        try {
            if (pool != null) {
                job.future = pool.submit(task);
            } else {
                background.execute(task);
            }
        } catch (RuntimeException rejected) {
            changeRunning(-1);
            onFailure.accept(new TaskFailure(what, new IllegalStateException("too much work queued, try again", rejected)));
        }
        return job;
    }

    private void changeRunning(int delta) {
        inFlight.addAndGet(delta);
        ui.execute(() -> running.set(inFlight.get()));
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** A running background task that can be cancelled; a cancelled job never calls back. */
    public static final class Job {
        private final AtomicBoolean cancelled = new AtomicBoolean();
        private volatile Future<?> future;

        public void cancel() {
            cancelled.set(true);
            Future<?> running = future;
            if (running != null) {
                running.cancel(true);
            }
        }

        public boolean isCancelled() {
            return cancelled.get();
        }
    }

    /**
     * A background task that failed: what it was doing and why it failed, in one line an operator can read. A library's
     * message may quote a connection URL, so the line never shows a password one carries.
     */
    public record TaskFailure(String what, Throwable error) {
        public String message() {
            String top = error.getMessage() == null ? "" : error.getMessage().lines().findFirst().orElse("");
            String root = ServiceUnavailableException.rootMessage(error);
            String why = top.isBlank() ? root : top.contains(root) ? top : top + " (" + root + ")";
            return UrlCredentials.mask(what + " failed: " + why);
        }
    }
}
