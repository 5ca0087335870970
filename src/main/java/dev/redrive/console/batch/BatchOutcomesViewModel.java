package dev.redrive.console.batch;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.ItemOutcome;
import dev.redrive.triage.precondition.PreconditionId;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What became of each item of the chosen batch, told from the facts as {@code redrive batch show} tells it: blocked by
 * which check, redriven then succeeded, failed again into which new DLQ entry, still running, decided elsewhere. A
 * batch's end is not its items' end: while the batch runs or any of its redrives still runs, {@link #refresh()} reads
 * the items again (off the FX thread), so the counts follow them until they settle.
 */
public final class BatchOutcomesViewModel {
    /** Items read of one batch: a batch takes at most this many from a group in the wizard, too. */
    static final int SHOWN = 1_000;

    private final BatchesBackend backend;
    private final UiExecutor executor;
    private final ObservableList<BatchOutcomes.Item> items = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper following = new ReadOnlyBooleanWrapper();
    private Long batchId;
    private boolean reading;

    public BatchOutcomesViewModel(BatchesBackend backend, UiExecutor executor) {
        this.backend = backend;
        this.executor = executor;
    }

    /** Shows the items of this batch (null: none chosen); a running batch is followed until its items settle. */
    void show(BatchRow row) {
        Long id = row == null ? null : row.id();
        boolean other = !Objects.equals(id, batchId);
        batchId = id;
        if (other) {
            items.clear();
            summary.set(id == null ? "Choose a batch to see what became of its items." : "Reading batch " + id + "…");
        }
        if (id != null && (other || row.batch().state() == BatchState.RUNNING)) {
            following.set(true);
            refresh();
        }
    }

    /** Reads the chosen batch's items again while they are followed; a read in progress is not doubled. */
    public void refresh() {
        if (batchId == null || !following.get() || reading) {
            return;
        }
        reading = true;
        long id = batchId;
        executor.submit("Reading what became of batch " + id, () -> backend.outcomes(id, SHOWN), report -> {
            reading = false;
            if (Objects.equals(batchId, id)) {
                report.ifPresentOrElse(this::apply, () -> {
                    following.set(false);
                    summary.set("There is no batch " + id + ".");
                });
            }
        }, failure -> {
            reading = false;
            summary.set(failure.message());
        });
    }

    private void apply(BatchOutcomes.Report report) {
        items.setAll(report.items());
        long running = report.tally().count(ItemOutcome.STILL_RUNNING);
        boolean batchRuns = report.batch().state() == BatchState.RUNNING;
        following.set(batchRuns || running > 0);
        summary.set("Batch " + report.batch().id() + ": " + report.summary() + (batchRuns ? "; the batch is running"
                : running > 0 ? "; following the " + running + " still running" : "; every item has settled"));
    }

    /**
     * One item's outcome in words: "redriven as attempt 2, then failed again: new DLQ entry 812", "blocked by: run not
     * active".
     */
    public static String describe(BatchOutcomes.Item item) {
        String attempt = item.redrivenAttempt() == null ? "" : "attempt " + item.redrivenAttempt();
        return switch (item.outcome()) {
            case BLOCKED -> "blocked by" + (item.blockedBy().isEmpty()
                    ? " " + Objects.toString(item.message(), "a check")
                    : ": " + item.blockedBy().stream().map(BatchOutcomesViewModel::checkTitle)
                    .collect(Collectors.joining(", ")));
            case SUCCEEDED -> "redriven, then succeeded (" + attempt + ")";
            case FAILED_AGAIN -> "redriven as " + attempt + ", then failed again: new DLQ entry "
                    + item.newDlqEntryId();
            case STILL_RUNNING -> "redriven, still running (" + attempt + ", " + item.operationStatus() + ")";
            case ENDED_OTHERWISE -> "redriven, then ended " + item.operationStatus();
            case DECIDED_ELSEWHERE, REFUSED -> item.outcome().words() + ": " + Objects.toString(item.message(), "");
            case RESOLVED, DISCARDED -> item.outcome().words();
        };
    }

    /**
     * A batch item keeps its failed checks by key ("run_active"); an operator reads what failed ("run not active"). A
     * key this version does not know (a check a later version added) shows as it is.
     */
    private static String checkTitle(String key) {
        return Arrays.stream(PreconditionId.values()).filter(id -> id.key().equals(key)).findFirst()
                .map(PreconditionId::failedTitle).orElse(key);
    }

    public ObservableList<BatchOutcomes.Item> items() {
        return FXCollections.unmodifiableObservableList(items);
    }

    /** "Batch 7: 26 item(s): 5 succeeded, 11 failed again, 10 blocked (run_active 10); every item has settled". */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** Whether the items are read again on each refresh: the batch runs, or some of its redrives do. */
    public ReadOnlyBooleanProperty followingProperty() {
        return following.getReadOnlyProperty();
    }
}
