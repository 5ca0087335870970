package dev.redrive.console.wizard;

import dev.redrive.model.SideEffectState;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionChoices;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.triage.query.DlqRow;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One DLQ entry the wizard decides about: what the operator saw (entry and version), what was loaded and checked,
 * which decisions it can still get, and what became of the decision.
 */
public final class WizardItem {
    /** A correction is a new operation: its dispatch is attempt 1. */
    private static final int FIRST_ATTEMPT = 1;

    private final String operationId;
    private final Long dlqEntryId;
    private Integer seenVersion;
    private String chosenSchemaVersion;
    private String correctionId;
    private DecisionChoices choices;
    private final ReadOnlyObjectWrapper<OperationDetails> details = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<DlqEntryRecord> entry = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<SideEffectState> sideEffect = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper reconciliation = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<PreconditionReport> report = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper checkSummary = new ReadOnlyStringWrapper("not checked yet");
    private final ReadOnlyStringWrapper stillPossible = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<DecisionResult> result = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<ItemResult> outcome = new ReadOnlyObjectWrapper<>();

    /**
     * @param operationId the operation the entry was entered for; null for an entry without an operation of its own,
     *                    which is decided by its entry id alone
     */
    public WizardItem(String operationId, Long dlqEntryId, Integer seenVersion) {
        this.operationId = operationId;
        this.dlqEntryId = dlqEntryId;
        this.seenVersion = seenVersion;
    }

    /** A row as the list shows it: an entry that only names an operation (its raw field) is an entry alone. */
    public static WizardItem of(DlqRow row) {
        return new WizardItem(row.ownEntry() ? row.operationId() : null, row.id(), row.version());
    }

    /** An entry as the detail pane shows it, with the same rule as {@link #of(DlqRow)}. */
    public static WizardItem of(DlqEntryRecord entry) {
        return new WizardItem(entry.ofOperation() ? entry.operationId() : null, entry.id(), entry.version());
    }

    /** The operation; null for an entry without an operation of its own. */
    public String operationId() {
        return operationId;
    }

    /** A DLQ entry without an operation of its own: nothing to reconcile or redrive, only discard or resolve. */
    public boolean entryOnly() {
        return operationId == null;
    }

    /** What a list names the item by: the operation id, or "DLQ entry N (no operation)". */
    public String subject() {
        return operationId != null ? operationId : "DLQ entry " + dlqEntryId + " (no operation)";
    }

    public Long dlqEntryId() {
        return dlqEntryId;
    }

    /** The tool the operation calls; null before the evidence is loaded. */
    public String tool() {
        return details.get() == null ? null : details.get().operation().tool();
    }

    /**
     * The entry exactly as the operator saw it, with the schema version they chose for a redrive: the same target
     * the CLI's {@code redrive --schema-version} builds, so both are checked and recorded alike.
     */
    public DecisionTarget target() {
        return new DecisionTarget(operationId, dlqEntryId, seenVersion, null).withSchemaVersion(chosenSchemaVersion);
    }

    /** A reconciliation bumps the entry's version: the operator has seen that change, so the guard follows it. */
    void seenVersion(Integer version) {
        if (version != null) {
            seenVersion = version;
        }
    }

    /** The schema version the operator declared compatible for a redrive; null keeps the dispatched one. */
    void chooseSchemaVersion(String version) {
        chosenSchemaVersion = version;
    }

    public String chosenSchemaVersion() {
        return chosenSchemaVersion;
    }

    void loaded(OperationDetails loaded) {
        DlqEntryRecord shown = loaded.dlqEntries().stream()
                .filter(e -> dlqEntryId == null ? e.isOpen() : e.id() == dlqEntryId).findFirst().orElse(null);
        entry.set(shown);
        details.set(loaded);
        SideEffectState state = loaded.operation().sideEffect();
        boolean reconciled = state == SideEffectState.APPLIED || state == SideEffectState.NOT_APPLIED;
        sideEffect.set(reconciled || shown == null ? state : shown.sideEffect());
    }

    /** An entry without an operation: its evidence is the entry itself, and no operation ran to have an effect. */
    void loadedAlone(DlqEntryRecord loaded) {
        entry.set(loaded);
        sideEffect.set(loaded.sideEffect());
        reconciliation.set("nothing to reconcile: no operation ran for this message");
    }

    void sideEffect(SideEffectState state, String what) {
        sideEffect.set(state);
        reconciliation.set(what);
    }

    void checked(PreconditionReport checked) {
        choices = DecisionChoices.of(checked);
        report.set(checked);
        long passed = checked.results().stream().filter(PreconditionResult::passed).count();
        checkSummary.set(passed + " of " + checked.results().size() + " checks pass" + (checked.allPassed() ? ""
                : "; blocked by: " + checked.failed().stream().map(PreconditionResult::found).collect(Collectors.joining(", "))));
        // A correction is a way of redriving: "redrive" says it is possible.
        String possible = Arrays.stream(DecisionKind.values()).filter(kind -> kind != DecisionKind.CORRECT)
                .filter(choices::allows)
                .map(kind -> kind.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
        stillPossible.set(possible.isEmpty() ? "no decision (" + choices.whyNot(DecisionKind.DISCARD) + ")" : possible);
    }

    /** Whether this item can get {@code kind} as last checked; nothing before the checks ran. */
    public boolean allows(DecisionKind kind) {
        return choices != null && choices.allows(kind);
    }

    /** Why this item cannot get {@code kind}, in a few words; null when it can. */
    public String whyNot(DecisionKind kind) {
        return choices == null ? "not checked yet" : choices.whyNot(kind);
    }

    void decided(DecisionResult decided) {
        result.set(decided);
        outcome.set(ItemResult.decided(decided));
    }

    /**
     * A correction was recorded: the item now runs as another operation, the node's next logical attempt, whose command
     * the result page follows.
     */
    void corrected(CorrectionResult corrected) {
        if (corrected.outcome().recorded()) {
            correctionId = corrected.correctionId();
        }
        result.set(new DecisionResult(DecisionKind.CORRECT, corrected.outcome(), corrected.operationId(),
                corrected.dlqEntryId(), corrected.message(), corrected.preconditions(), corrected.commandId(),
                FIRST_ATTEMPT, corrected.operator(), corrected.decidedAt()));
        outcome.set(ItemResult.corrected(corrected));
    }

    /** The correction that replaced the item's operation; null when none was recorded. */
    public String correctionId() {
        return correctionId;
    }

    /** The operation whose run decides how the item ended: its correction's, once there is one. */
    String runningOperationId() {
        return correctionId != null ? correctionId : operationId;
    }

    /** The redrive command issued for this item; empty before, and for other decisions. */
    public String commandId() {
        DecisionResult decided = result.get();
        return decided == null || decided.commandId() == null ? "" : decided.commandId().toString();
    }

    void outcome(ItemResult now) {
        outcome.set(now);
    }

    public boolean passes() {
        return report.get() != null && report.get().allPassed();
    }

    public boolean isUnsettled() {
        return !entryOnly() && sideEffect.get() == SideEffectState.POSSIBLE;
    }

    /** A redrive issued for this item that the worker has not finished yet. */
    public boolean isWaitingForWorker() {
        return outcome.get() != null && outcome.get().kind() == ItemResult.Kind.WAITING && result.get() != null
                && result.get().commandId() != null;
    }

    /** The operation with its evidence; stays null for an entry without an operation. */
    public ReadOnlyObjectProperty<OperationDetails> detailsProperty() { return details.getReadOnlyProperty(); }
    /** The DLQ entry decided about, as last loaded. */
    public ReadOnlyObjectProperty<DlqEntryRecord> entryProperty() { return entry.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<SideEffectState> sideEffectProperty() { return sideEffect.getReadOnlyProperty(); }
    public ReadOnlyStringProperty reconciliationProperty() { return reconciliation.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<PreconditionReport> reportProperty() { return report.getReadOnlyProperty(); }
    /** "4 of 5 checks pass; blocked by: run cancelled". */
    public ReadOnlyStringProperty checkSummaryProperty() { return checkSummary.getReadOnlyProperty(); }
    /** The decisions the item can still get, e.g. "resolve, discard". */
    public ReadOnlyStringProperty stillPossibleProperty() { return stillPossible.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<DecisionResult> resultProperty() { return result.getReadOnlyProperty(); }
    /** What became of the item, in words and as one of succeeded / failed / blocked / waiting; null before. */
    public ReadOnlyObjectProperty<ItemResult> outcomeProperty() { return outcome.getReadOnlyProperty(); }
}
