package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.decision.DecisionKind;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;

import java.util.List;

/**
 * The reconciliation wizard over one entry, a selection or a fingerprint group: evidence, side-effect
 * reconciliation, preconditions with the remedy for each failed one, the decision, and its result. Every step loads
 * off the FX thread. A step's "can continue" is a binding the wizard's Next button follows; the redrive itself is
 * checked again by the triage core in the transaction that records it, so nothing the window shows can let an
 * unchecked redrive through.
 * <p>
 * Each step keeps its own state in a class of its own ({@link EvidenceStep}, {@link ReconcileStep},
 * {@link PreconditionsStep}, {@link DecisionStep}, {@link ResultStep}, with {@link DecisionIssuer} between the last
 * two); this class is the one face the view binds to, and passes a step's news on to the steps that follow it.
 */
public final class ReconciliationWizardViewModel {
    private final StepWork work;
    private final StringProperty operator = new SimpleStringProperty("");
    private final PayloadEditor editor;
    private final EvidenceStep evidence;
    private final ReconcileStep reconcile;
    private final PreconditionsStep preconditions;
    private final DecisionStep decision;
    private final ResultStep result;
    private final DecisionIssuer issuer;

    /** An entry the console shows once the wizard closes. */
    public record EntryRef(String operationId, Long entryId) {
    }

    public ReconciliationWizardViewModel(WizardBackend backend, UiExecutor executor, List<WizardItem> items,
                                         String operatorName) {
        work = new StepWork(backend, executor, items);
        operator.set(operatorName);
        editor = new PayloadEditor(backend.redactor());
        evidence = new EvidenceStep(work, editor);
        reconcile = new ReconcileStep(work, operator);
        preconditions = new PreconditionsStep(work);
        decision = new DecisionStep(work, editor, preconditions.checkedProperty(), operator);
        result = new ResultStep(work);
        issuer = new DecisionIssuer(work, decision, result, editor, operator);
    }

    // 1. Evidence ---------------------------------------------------------------------------------------------------

    /** Loads every item's operation, evidence and history, and what the connected role may decide. */
    public void loadEvidence() {
        evidence.loadEvidence(reconcile::countUnsettled);
    }

    // 2. Reconcile ---------------------------------------------------------------------------------------------------

    /** Asks the tool about every item whose side effect is still POSSIBLE, and records each answer. */
    public void askToolForUnsettled() {
        reconcile.askToolForUnsettled();
    }

    /**
     * Records the operator's own finding (APPLIED or NOT_APPLIED) with the evidence they give and, for APPLIED, the
     * tool's result from {@link #manualResult()}: what a resolve takes, as {@code reconcile --applied --result} records.
     */
    public void recordByOperator(WizardItem item, ReconciliationOutcome outcome, String evidence) {
        reconcile.recordByOperator(item, outcome, evidence);
    }

    // 3. Preconditions -----------------------------------------------------------------------------------------------

    /** Checks every precondition of every item against the store's facts now. */
    public void recheck() {
        preconditions.recheck(decision::refreshChoices);
    }

    /** Reads the entries again (accepting the versions they are at now) and checks them again. */
    public void refresh() {
        preconditions.uncheck();
        evidence.load(true, this::recheck);
    }

    /**
     * Redrives the items of {@code tool} with {@code version}, which the operator declares compatible (null: back to
     * the dispatched version), and checks them again; the version is recorded with the command as the CLI's
     * {@code --schema-version} is.
     */
    public void chooseSchemaVersion(String tool, String version) {
        work.items().stream().filter(item -> tool.equals(item.tool())).forEach(item -> item.chooseSchemaVersion(version));
        recheck();
    }

    /** Takes a remedy the preconditions step offers; the view moves on to the decision when it {@link Remedy#advances}. */
    public void apply(Remedy remedy) {
        switch (remedy.action()) {
            case CHOOSE_SCHEMA -> chooseSchemaVersion(remedy.tool(), remedy.version());
            case RESOLVE -> choose(DecisionKind.RESOLVE);
            case DISCARD -> choose(DecisionKind.DISCARD);
            case REFRESH -> refresh();
        }
    }

    // 4. Decision ---------------------------------------------------------------------------------------------------

    /** The operator's own choice of decision; the wizard keeps it while it stays possible. */
    public void choose(DecisionKind kind) {
        decision.choose(kind);
    }

    // 5. Result -----------------------------------------------------------------------------------------------------

    /** Takes the chosen decision on every item that can get it; the others are left as they are and say why. */
    public void issue() {
        issuer.issue();
    }

    /**
     * Reads the redriven items again with the verification {@code op show} and reports give: did the worker run each
     * once (and does the tool count one effect), is it still waiting, or did it fail again?
     */
    public void verify() {
        result.verify();
    }

    /** The operator followed the link from one item's result: the console shows where it is now once the wizard closes. */
    public void link(WizardItem item) {
        result.link(item);
    }

    /** The entry to show after the wizard: the one linked to, else the first item's. */
    public EntryRef entryToShow() {
        return result.entryToShow();
    }

    /** The entries a decision was recorded on, whose rows the console reads again; empty when nothing was decided. */
    public List<Long> decidedEntryIds() {
        return result.decidedEntryIds();
    }

    /** Stops a running batch after the item in hand; items not reached are left as they are. */
    public void stop() {
        work.stop();
    }

    public boolean isBatch() {
        return work.isBatch();
    }

    /** Next is allowed on the evidence step once everything is loaded. */
    public BooleanBinding canLeaveEvidence() {
        return evidence.evidenceLoadedProperty().and(work.busyProperty().not());
    }

    /** Next is allowed on the reconcile step once no side effect is POSSIBLE any more. */
    public BooleanBinding canLeaveReconcile() {
        return evidence.evidenceLoadedProperty().and(work.busyProperty().not())
                .and(reconcile.unsettledProperty().isEqualTo(0));
    }

    /** Next is disabled on the preconditions step only when no item can get any decision at all. */
    public BooleanBinding canLeavePreconditions() {
        return preconditions.checkedProperty().and(work.busyProperty().not()).and(preconditions.anyDecisionProperty());
    }

    /**
     * The decision can be taken once it applies to some item and a reason and an operator are given; a correction also
     * needs a payload it can take.
     */
    public BooleanBinding canIssue() {
        return decision.canIssue();
    }

    public ObservableList<WizardItem> items() { return work.items(); }
    /** The corrected payload of the one item, as the operator edits it for {@link DecisionKind#CORRECT}. */
    public PayloadEditor editor() { return editor; }
    public ReadOnlyBooleanProperty busyProperty() { return work.busyProperty(); }

    /** Whether an item waits for the worker (a redrive or a correction issued): a request or a discard does not. */
    public ReadOnlyBooleanProperty workerToCheckProperty() { return result.workerToCheckProperty(); }
    public ReadOnlyDoubleProperty progressProperty() { return work.progressProperty(); }
    public ReadOnlyStringProperty progressTextProperty() { return work.progressTextProperty(); }
    public ReadOnlyIntegerProperty unsettledProperty() { return reconcile.unsettledProperty(); }
    /** Empty when the connected role may decide; else why the database will refuse (a viewer looks, never decides). */
    public ReadOnlyStringProperty readOnlyReasonProperty() { return evidence.readOnlyReasonProperty(); }
    public ReadOnlyStringProperty reconcileTextProperty() { return reconcile.reconcileTextProperty(); }
    /** The tool's result the operator gives with an APPLIED finding: optional, a JSON object. */
    public ResultInput manualResult() { return reconcile.manualResult(); }
    public ReadOnlyBooleanProperty checkedProperty() { return preconditions.checkedProperty(); }
    /** One item: "4 of 5 checks pass; blocked by: run cancelled". A batch: how many entries pass every check. */
    public ReadOnlyStringProperty checkSummaryProperty() { return preconditions.checkSummaryProperty(); }
    public ReadOnlyStringProperty blockedReasonProperty() { return preconditions.blockedReasonProperty(); }
    /** One item whose tool schema changed: both versions and what is known of the difference; empty otherwise. */
    public ReadOnlyStringProperty schemaChangeProperty() { return preconditions.schemaChangeProperty(); }
    /** A batch: each check that blocks items, how many, and what those can still get. */
    public ObservableList<CheckTally> tallies() { return preconditions.tallies(); }
    public ObservableList<Remedy> remedies() { return preconditions.remedies(); }
    /** The decision chosen; set it with {@link #choose}. */
    public ReadOnlyObjectProperty<DecisionKind> decisionProperty() { return decision.decisionProperty(); }
    /** Whether any item can get {@code kind}. */
    public ReadOnlyBooleanProperty allowedProperty(DecisionKind kind) { return decision.allowedProperty(kind); }
    /** One item: why it cannot get {@code kind} (empty when it can). A batch: how many can, and why the rest not. */
    public ReadOnlyStringProperty choiceNoteProperty(DecisionKind kind) { return decision.choiceNoteProperty(kind); }
    /** What the button that takes the decision says: "Redrive 1 operation", "Discard 12 entries". */
    public ReadOnlyStringProperty actionTextProperty() { return decision.actionTextProperty(); }
    /** The four-eyes rule that makes the chosen decision wait for a second operator; empty when it does not. */
    public ReadOnlyStringProperty waitsForApprovalProperty() { return decision.waitsForApprovalProperty(); }
    /** What the decision will do: which attempt, which idempotency key, how fast. */
    public ReadOnlyStringProperty planProperty() { return decision.planProperty(); }
    public StringProperty reasonProperty() { return decision.reasonProperty(); }
    public StringProperty operatorProperty() { return operator; }
    public IntegerProperty redrivesPerSecondProperty() { return decision.redrivesPerSecondProperty(); }
    /** True from the moment the decision is issued: nothing can go back after that. */
    public ReadOnlyBooleanProperty issuedProperty() { return decision.issuedProperty(); }
    /** The decision is being recorded, item by item; the wizard closes once it is. */
    public ReadOnlyBooleanProperty decidingProperty() { return result.decidingProperty(); }
    /** A paced batch of redrives is being issued: it can be stopped. */
    public ReadOnlyBooleanProperty pacingProperty() { return result.pacingProperty(); }
    public ReadOnlyIntegerProperty resultCountProperty(ItemResult.Kind kind) { return result.resultCountProperty(kind); }
    /** Empty unless a batch was stopped: how many of its items were decided and that the rest are left open. */
    public ReadOnlyStringProperty stoppedNoteProperty() { return result.stoppedNoteProperty(); }
    /** "1 succeeded · 0 failed · 0 blocked · 0 waiting". */
    public ReadOnlyStringProperty resultSummaryProperty() { return result.resultSummaryProperty(); }
}
