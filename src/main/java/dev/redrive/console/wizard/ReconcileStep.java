package dev.redrive.console.wizard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.decision.ReconciliationResult;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.redaction.Redactor;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ObservableStringValue;

import java.util.List;

/** Step 2: settles every side effect still POSSIBLE, by asking the tool or by the operator's own finding. */
final class ReconcileStep {
    /** How much of a tool's answer the reconciliation column shows. */
    private static final int EVIDENCE_SHOWN = 240;

    private final StepWork work;
    private final ObservableStringValue operator;
    private final ReadOnlyIntegerWrapper unsettled = new ReadOnlyIntegerWrapper();
    private final ReadOnlyStringWrapper reconcileText = new ReadOnlyStringWrapper("");
    private final ResultInput manualResult = new ResultInput();

    ReconcileStep(StepWork work, ObservableStringValue operator) {
        this.work = work;
        this.operator = operator;
    }

    /** Asks the tool about every item whose side effect is still POSSIBLE, and records each answer. */
    void askToolForUnsettled() {
        List<WizardItem> open = work.items().stream().filter(WizardItem::isUnsettled).toList();
        String who = operator.get();
        work.run("Asking the tool", open, item -> {
            ReconciliationResult answer = work.backend().reconcileWithTool(item.operationId(), who);
            work.executor().onUi(() -> reconciled(item, answer, "tool answered: " + words(answer.outcome())
                    + (answer.result() == null ? "" : " with " + answer.result()) + whyUnknown(answer)));
        }, this::countUnsettled);
    }

    /** See {@link ReconciliationWizardViewModel#recordByOperator}. */
    void recordByOperator(WizardItem item, ReconciliationOutcome outcome, String evidence) {
        if (item.entryOnly()) {
            reconcileText.set(item.subject() + ": nothing to reconcile, no operation ran for it.");
            return;
        }
        if (evidence == null || evidence.isBlank()) {
            reconcileText.set("Say what shows the effect was " + words(outcome)
                    + ": the evidence is kept with the decision.");
            return;
        }
        boolean applied = outcome == ReconciliationOutcome.APPLIED;
        if (applied && !manualResult.isValid()) {
            reconcileText.set(manualResult.problemProperty().get());
            return;
        }
        JsonNode result = applied ? manualResult.value() : null;
        String who = operator.get();
        work.run("Recording the reconciliation", List.of(item), one -> {
            ReconciliationResult answer = work.backend().recordReconciliation(one.operationId(), outcome, evidence,
                    result, who);
            work.executor().onUi(() -> reconciled(one, answer, "recorded by " + who + ": " + words(outcome) + " · "
                    + evidence + (result == null ? "" : " · result " + TriageJson.compact(result))));
        }, this::countUnsettled);
    }

    /**
     * Why the tool could not tell, from what it answered (" · answered 503 {...}"): "the tool does not know" and "its
     * look-up is down" call for different things. Masked as every evidence text shown, and cut to a line.
     */
    private static String whyUnknown(ReconciliationResult answer) {
        if (answer.outcome() != ReconciliationOutcome.UNKNOWN || answer.evidence() == null) {
            return "";
        }
        String said = Redactor.defaults().redactText(answer.evidence()).strip();
        return " · " + (said.length() > EVIDENCE_SHOWN ? said.substring(0, EVIDENCE_SHOWN) + "…" : said);
    }

    /** "not applied": an operator reads the outcome, not the enum. */
    private static String words(ReconciliationOutcome outcome) {
        return outcome.name().replace('_', ' ').toLowerCase();
    }

    private static void reconciled(WizardItem item, ReconciliationResult answer, String what) {
        item.seenVersion(answer.entryVersion());
        item.sideEffect(answer.sideEffect(), what);
    }

    void countUnsettled() {
        List<WizardItem> items = work.items();
        long open = items.stream().filter(WizardItem::isUnsettled).count();
        long applied = items.stream().filter(i -> i.sideEffectProperty().get() == SideEffectState.APPLIED).count();
        unsettled.set((int) open);
        reconcileText.set(open == 0
                ? (applied > 0 ? applied + " applied: resolve " + (applied == 1 ? "it" : "them")
                + " as succeeded instead of re-running. " : "") + "Every side effect is settled."
                : open + " side effect(s) still POSSIBLE: ask the tool or record what you found before going on.");
    }

    ReadOnlyIntegerProperty unsettledProperty() { return unsettled.getReadOnlyProperty(); }
    ReadOnlyStringProperty reconcileTextProperty() { return reconcileText.getReadOnlyProperty(); }
    ResultInput manualResult() { return manualResult; }
}
