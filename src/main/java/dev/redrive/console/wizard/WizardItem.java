package dev.redrive.console.wizard;

import dev.redrive.model.SideEffectState;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.util.stream.Collectors;

/**
 * One DLQ entry the wizard decides about: what the operator saw (entry and version), what was loaded and checked,
 * and what became of the decision.
 */
public final class WizardItem {
    private final String operationId;
    private final Long dlqEntryId;
    private Integer seenVersion;
    private final ReadOnlyObjectWrapper<OperationDetails> details = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<SideEffectState> sideEffect = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper reconciliation = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<PreconditionReport> report = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper checkSummary = new ReadOnlyStringWrapper("not checked yet");
    private final ReadOnlyObjectWrapper<DecisionResult> result = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper outcome = new ReadOnlyStringWrapper("");

    public WizardItem(String operationId, Long dlqEntryId, Integer seenVersion) {
        this.operationId = operationId;
        this.dlqEntryId = dlqEntryId;
        this.seenVersion = seenVersion;
    }

    public String operationId() {
        return operationId;
    }

    public Long dlqEntryId() {
        return dlqEntryId;
    }

    /** The entry exactly as the operator saw it; a decision on it is refused if it changed since. */
    public DecisionTarget target() {
        return new DecisionTarget(operationId, dlqEntryId, seenVersion, null);
    }

    /** A reconciliation bumps the entry's version: the operator has seen that change, so the guard follows it. */
    void seenVersion(Integer version) {
        if (version != null) {
            seenVersion = version;
        }
    }

    void loaded(OperationDetails loaded) {
        details.set(loaded);
        SideEffectState state = loaded.operation().sideEffect();
        boolean reconciled = state == SideEffectState.APPLIED || state == SideEffectState.NOT_APPLIED;
        sideEffect.set(reconciled ? state : loaded.dlqEntries().stream()
                .filter(entry -> dlqEntryId == null || entry.id() == dlqEntryId)
                .findFirst().map(entry -> entry.sideEffect()).orElse(state));
    }

    void sideEffect(SideEffectState state, String what) {
        sideEffect.set(state);
        reconciliation.set(what);
    }

    void checked(PreconditionReport checked) {
        report.set(checked);
        checkSummary.set(checked.allPassed() ? "all checks pass"
                : "blocked: " + checked.failed().stream().map(r -> r.id().title()).collect(Collectors.joining(", ")));
    }

    void decided(DecisionResult decided) {
        result.set(decided);
        outcome.set(decided.outcome() + ": " + decided.message());
    }

    /** The redrive command issued for this item; empty before, and for other decisions. */
    public String commandId() {
        DecisionResult decided = result.get();
        return decided == null || decided.commandId() == null ? "" : decided.commandId().toString();
    }

    void outcome(String text) {
        outcome.set(text);
    }

    public boolean passes() {
        return report.get() != null && report.get().allPassed();
    }

    public boolean isUnsettled() {
        return sideEffect.get() == SideEffectState.POSSIBLE;
    }

    /** The first failed check, for the batch summary; null when all pass or nothing was checked. */
    public PreconditionResult firstFailure() {
        return report.get() == null || report.get().allPassed() ? null : report.get().failed().get(0);
    }

    public ReadOnlyObjectProperty<OperationDetails> detailsProperty() { return details.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<SideEffectState> sideEffectProperty() { return sideEffect.getReadOnlyProperty(); }
    public ReadOnlyStringProperty reconciliationProperty() { return reconciliation.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<PreconditionReport> reportProperty() { return report.getReadOnlyProperty(); }
    public ReadOnlyStringProperty checkSummaryProperty() { return checkSummary.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<DecisionResult> resultProperty() { return result.getReadOnlyProperty(); }
    public ReadOnlyStringProperty outcomeProperty() { return outcome.getReadOnlyProperty(); }
}
