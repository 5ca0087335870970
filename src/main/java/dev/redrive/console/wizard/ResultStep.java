package dev.redrive.console.wizard;

import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.detail.OperationDetails;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** Step 5: each item's result counted, what the worker did with the redriven ones, and where the console goes next. */
final class ResultStep {
    private final StepWork work;
    private final ReadOnlyBooleanWrapper workerToCheck = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper deciding = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper pacing = new ReadOnlyBooleanWrapper();
    private final Map<ItemResult.Kind, ReadOnlyIntegerWrapper> resultCounts = new EnumMap<>(ItemResult.Kind.class);
    private final ReadOnlyStringWrapper resultSummary = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper stoppedNote = new ReadOnlyStringWrapper("");
    private ReconciliationWizardViewModel.EntryRef linked;

    ResultStep(StepWork work) {
        this.work = work;
        for (ItemResult.Kind kind : ItemResult.Kind.values()) {
            resultCounts.put(kind, new ReadOnlyIntegerWrapper());
        }
    }

    /** The decision is being recorded; a paced batch of redrives can be stopped while it is. */
    void deciding(boolean paced) {
        deciding.set(true);
        pacing.set(paced);
    }

    /** The decision was recorded on what {@code eligible} it reached; a stop says how many it did not. */
    void decided(List<WizardItem> eligible) {
        deciding.set(false);
        pacing.set(false);
        long notReached = eligible.stream().filter(item -> item.outcomeProperty().get() == null).count();
        // The progress line is the next background step's (the worker is followed each second): this note stays.
        if (work.stopRequested() && notReached > 0) {
            stoppedNote.set("Stopped after " + (eligible.size() - notReached) + " of " + eligible.size() + " redrives: "
                    + notReached + " not reached, left open.");
        }
        countResults();
    }

    void countResults() {
        List<WizardItem> items = work.items();
        Map<ItemResult.Kind, Long> counts = items.stream().map(item -> item.outcomeProperty().get())
                .filter(Objects::nonNull).collect(Collectors.groupingBy(ItemResult::kind, Collectors.counting()));
        resultCounts.forEach((kind, count) -> count.set(counts.getOrDefault(kind, 0L).intValue()));
        resultSummary.set(Arrays.stream(ItemResult.Kind.values())
                .map(kind -> resultCounts.get(kind).get() + " " + kind.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(" · ")));
        workerToCheck.set(items.stream().anyMatch(WizardItem::isWaitingForWorker));
    }

    /** See {@link ReconciliationWizardViewModel#verify()}. */
    void verify() {
        List<WizardItem> waiting = work.items().stream().filter(WizardItem::isWaitingForWorker).toList();
        if (waiting.isEmpty() || work.isBusy()) {
            return;
        }
        WizardBackend backend = work.backend();
        work.run("Reading what the worker did", waiting, item -> {
            OperationDetails details = backend.load(item.runningOperationId());
            DecisionResult result = item.resultProperty().get();
            ItemResult run = ItemResult.afterRun(details, backend.verify(result.commandId()), result);
            String correction = item.correctionId();
            work.executor().onUi(() -> {
                // A correction's details are another operation's: the item keeps the evidence of the one it replaced.
                if (correction == null) {
                    item.loaded(details);
                }
                item.outcome(correction == null ? run : run.ofCorrection(correction));
            });
        }, this::countResults, this::countResults);
    }

    /** See {@link ReconciliationWizardViewModel#link}. */
    void link(WizardItem item) {
        ItemResult result = item.outcomeProperty().get();
        linked = new ReconciliationWizardViewModel.EntryRef(item.runningOperationId(),
                result != null && result.newEntryId() != null ? result.newEntryId()
                        : item.correctionId() != null ? null : item.dlqEntryId());
    }

    ReconciliationWizardViewModel.EntryRef entryToShow() {
        WizardItem first = work.first();
        return linked != null ? linked : new ReconciliationWizardViewModel.EntryRef(first.operationId(), first.dlqEntryId());
    }

    List<Long> decidedEntryIds() {
        return work.items().stream()
                .filter(item -> item.resultProperty().get() != null && item.resultProperty().get().recorded())
                .map(item -> item.resultProperty().get().dlqEntryId()).filter(Objects::nonNull).toList();
    }

    ReadOnlyBooleanProperty workerToCheckProperty() { return workerToCheck.getReadOnlyProperty(); }
    ReadOnlyBooleanProperty decidingProperty() { return deciding.getReadOnlyProperty(); }
    ReadOnlyBooleanProperty pacingProperty() { return pacing.getReadOnlyProperty(); }
    ReadOnlyIntegerProperty resultCountProperty(ItemResult.Kind kind) { return resultCounts.get(kind).getReadOnlyProperty(); }
    ReadOnlyStringProperty stoppedNoteProperty() { return stoppedNote.getReadOnlyProperty(); }
    ReadOnlyStringProperty resultSummaryProperty() { return resultSummary.getReadOnlyProperty(); }
}
