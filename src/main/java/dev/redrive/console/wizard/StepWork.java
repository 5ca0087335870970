package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;

/**
 * What every step of the wizard shares: the items, the backend, and the one background task at a time that works
 * through them, with its progress line and the operator's request to stop.
 */
final class StepWork {
    private final WizardBackend backend;
    private final UiExecutor executor;
    private final ObservableList<WizardItem> items;
    private final boolean batch;
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper("");
    private volatile boolean stopRequested;

    StepWork(WizardBackend backend, UiExecutor executor, List<WizardItem> items) {
        if (items.isEmpty()) {
            throw new IllegalArgumentException("the wizard needs at least one DLQ entry");
        }
        this.backend = backend;
        this.executor = executor;
        this.items = FXCollections.observableArrayList(items);
        this.batch = items.size() > 1;
    }

    @FunctionalInterface
    interface ItemWork {
        void run(WizardItem item) throws Exception;
    }

    void run(String what, List<WizardItem> work, ItemWork step, Runnable done) {
        run(what, work, step, done, () -> { });
    }

    /** Works through items in one background task, reporting progress per item; a failure names its item. */
    void run(String what, List<WizardItem> work, ItemWork step, Runnable done, Runnable afterFailure) {
        begin(what);
        int total = work.size();
        executor.submit(what, () -> {
            for (int i = 0; i < total; i++) {
                if (stopRequested) {
                    return i;
                }
                WizardItem item = work.get(i);
                try {
                    step.run(item);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw e;
                } catch (Exception e) {
                    executor.onUi(() -> item.outcome(ItemResult.error(e.getMessage())));
                    throw new IllegalStateException(item.subject() + ": " + e.getMessage(), e);
                }
                int finished = i + 1;
                executor.onUi(() -> advanced(what, finished, total, ""));
            }
            return total;
        }, count -> {
            ended(what, count, total);
            done.run();
        }, failure -> {
            failed(failure);
            afterFailure.run();
            executor.report(failure);
        });
    }

    /** A task over the items starts: busy, no progress yet, and no stop asked for. */
    void begin(String what) {
        busy.set(true);
        progress.set(0);
        progressText.set(what + "…");
        stopRequested = false;
    }

    /** {@code done} of {@code total} items are through; {@code pace} is appended to the progress line. */
    void advanced(String what, int done, int total, String pace) {
        progress.set((double) done / total);
        progressText.set(what + ": " + done + " of " + total + pace);
    }

    void ended(String what, int count, int total) {
        busy.set(false);
        progressText.set(what + ": " + count + " of " + total + " done" + (count < total ? " (stopped)" : ""));
    }

    /** The task failed: the progress line says why; the caller reports it once its items are settled. */
    void failed(UiExecutor.TaskFailure failure) {
        busy.set(false);
        progressText.set(failure.message());
    }

    /** Stops a running task after the item in hand; items not reached are left as they are. */
    void stop() {
        stopRequested = true;
    }

    boolean stopRequested() {
        return stopRequested;
    }

    WizardBackend backend() { return backend; }
    UiExecutor executor() { return executor; }
    ObservableList<WizardItem> items() { return items; }
    WizardItem first() { return items.get(0); }
    boolean isBatch() { return batch; }
    boolean isBusy() { return busy.get(); }
    ReadOnlyBooleanProperty busyProperty() { return busy.getReadOnlyProperty(); }
    ReadOnlyDoubleProperty progressProperty() { return progress.getReadOnlyProperty(); }
    ReadOnlyStringProperty progressTextProperty() { return progressText.getReadOnlyProperty(); }
}
