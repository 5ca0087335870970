package dev.redrive.console.wizard;

import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.precondition.DecisionTarget;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableBooleanValue;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Step 4: which decisions the items can get, the one chosen, what it will do and whether the four-eyes policy makes
 * it wait, and the reason, operator and pace it is taken with.
 */
final class DecisionStep {
    private final StepWork work;
    private final PayloadEditor editor;
    private final ObservableBooleanValue checked;
    private final StringProperty operator;
    private final ReadOnlyObjectWrapper<DecisionKind> decision = new ReadOnlyObjectWrapper<>(DecisionKind.REDRIVE);
    private final Map<DecisionKind, ReadOnlyBooleanWrapper> allowed = new EnumMap<>(DecisionKind.class);
    private final Map<DecisionKind, ReadOnlyStringWrapper> choiceNotes = new EnumMap<>(DecisionKind.class);
    private final ReadOnlyStringWrapper actionText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper plan = new ReadOnlyStringWrapper("");
    /** Which rule of the four-eyes policy makes the chosen decision wait; empty when it is taken at once. */
    private final ReadOnlyStringWrapper waitsForApproval = new ReadOnlyStringWrapper("");
    private final StringProperty reason = new SimpleStringProperty("");
    private final IntegerProperty redrivesPerSecond = new SimpleIntegerProperty(5);
    private final ReadOnlyBooleanWrapper issued = new ReadOnlyBooleanWrapper();
    /** What a correction of the one item would dispatch (operation id, key, schema version); null until asked. */
    private CorrectionResult correctionPreview;
    /** The last decision and items the four-eyes policy was asked about. */
    private PolicyQuestion askedPolicy;
    /** The decision was picked by the wizard, not the operator: it follows what the checks allow. */
    private boolean decisionPicked = true;

    private record PolicyQuestion(DecisionKind kind, List<DecisionTarget> targets) {
    }

    /** {@code checked}: whether step 3 has checked the items; before that an empty choice shows no plan. */
    DecisionStep(StepWork work, PayloadEditor editor, ObservableBooleanValue checked, StringProperty operator) {
        this.work = work;
        this.editor = editor;
        this.checked = checked;
        this.operator = operator;
        for (DecisionKind kind : DecisionKind.values()) {
            allowed.put(kind, new ReadOnlyBooleanWrapper());
            choiceNotes.put(kind, new ReadOnlyStringWrapper(""));
        }
        decision.addListener((obs, was, now) -> {
            updatePlan();
            if (now == DecisionKind.CORRECT) {
                previewCorrection();
            }
        });
        editor.changesProperty().addListener((obs, was, now) -> updatePlan());
        redrivesPerSecond.addListener((obs, was, now) -> updatePlan());
    }

    /** Which decisions the items can get, with the counts and reasons each choice shows; keeps a possible choice. */
    void refreshChoices() {
        boolean batch = work.isBatch();
        for (DecisionKind kind : DecisionKind.values()) {
            List<WizardItem> eligible = eligible(kind);
            allowed.get(kind).set(!eligible.isEmpty());
            choiceNotes.get(kind).set(batch ? batchNote(kind, eligible.size()) : Objects.toString(work.first().whyNot(kind), ""));
        }
        if (batch) {
            allowed.get(DecisionKind.CORRECT).set(false);
            choiceNotes.get(DecisionKind.CORRECT).set("one entry at a time: each correction carries its own payload");
        }
        correctionPreview = null;
        if (decision.get() == DecisionKind.CORRECT && allowed.get(DecisionKind.CORRECT).get()) {
            previewCorrection();
        }
        if (decisionPicked || !allowed.get(decision.get()).get()) {
            // Redrive first, as the wizard is for re-running; else what the entries can still get.
            Arrays.stream(DecisionKind.values()).filter(kind -> allowed.get(kind).get()).findFirst().ifPresent(decision::set);
            decisionPicked = true;
        }
        updatePlan();
    }

    /** The operator's own choice of decision; the wizard keeps it while it stays possible. */
    void choose(DecisionKind kind) {
        decisionPicked = false;
        decision.set(kind);
    }

    /** "2 of 3 entries; 1 not: blocked by run cancelled". */
    private String batchNote(DecisionKind kind, int count) {
        List<WizardItem> items = work.items();
        Map<String, Long> whyNot = items.stream().filter(item -> !item.allows(kind))
                .collect(Collectors.groupingBy(item -> item.whyNot(kind), LinkedHashMap::new, Collectors.counting()));
        return count + " of " + items.size() + " entries" + (whyNot.isEmpty() ? "" : "; not "
                + whyNot.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", ")));
    }

    /** The items that can get {@code kind}; a correction is never taken on a batch. */
    List<WizardItem> eligible(DecisionKind kind) {
        if (kind == DecisionKind.CORRECT && work.isBatch()) {
            return List.of();
        }
        return work.items().stream().filter(item -> item.allows(kind)).toList();
    }

    /** Asks which operation and key a correction would dispatch, with the schema version chosen: what step 4 names. */
    private void previewCorrection() {
        DecisionTarget target = work.first().target();
        String payload = editor.originalText();
        work.executor().submit("Reading which attempt a correction would be",
                () -> work.backend().checkCorrection(target, payload), preview -> {
                    correctionPreview = preview;
                    updatePlan();
                });
    }

    private void updatePlan() {
        DecisionKind kind = decision.get();
        askPolicy(kind);
        if (kind == DecisionKind.CORRECT) {
            actionText.set(DecisionPlan.correctAction(correctionPreview));
            plan.set(allowed.get(kind).get() ? DecisionPlan.underApproval(waitsForApproval.get(),
                    DecisionPlan.correctSummary(work.first(), correctionPreview, editor)) : "");
            return;
        }
        List<WizardItem> eligible = eligible(kind);
        actionText.set(DecisionPlan.action(kind, eligible.size(), work.isBatch()));
        plan.set(checked.get() || !eligible.isEmpty() ? DecisionPlan.underApproval(waitsForApproval.get(),
                DecisionPlan.summary(kind, eligible, work.items().size(), pace())) : "");
    }

    /**
     * Asks whether the four-eyes policy covers the decision on the items it would take, so that step 4 says so before
     * anything is issued (the answer for the decision chosen last is the one kept).
     */
    private void askPolicy(DecisionKind kind) {
        List<DecisionTarget> targets = eligible(kind).stream().map(WizardItem::target).toList();
        if (targets.isEmpty() || issued.get()) {
            askedPolicy = null;
            waitsForApproval.set("");
            return;
        }
        // The plan is redrawn on every keystroke in the editor and every change of pace: the policy is asked again
        // only when the decision or the items it would take change.
        PolicyQuestion question = new PolicyQuestion(kind, targets);
        if (question.equals(askedPolicy)) {
            return;
        }
        askedPolicy = question;
        work.executor().submit("Reading the four-eyes policy", () -> work.backend().wouldWait(kind, targets).orElse(""),
                rule -> {
                    if (decision.get() == kind) {
                        waitsForApproval.set(rule);
                        updatePlan();
                    }
                });
    }

    /** See {@link ReconciliationWizardViewModel#canIssue()}. */
    BooleanBinding canIssue() {
        return Bindings.createBooleanBinding(() -> !reason.get().isBlank() && !operator.get().isBlank()
                && !work.isBusy() && !issued.get() && allowed.get(decision.get()).get()
                && (decision.get() != DecisionKind.CORRECT || editor.isValid()), reason, operator, work.busyProperty(),
                issued, decision, allowed.get(DecisionKind.REDRIVE), allowed.get(DecisionKind.RESOLVE),
                allowed.get(DecisionKind.DISCARD), allowed.get(DecisionKind.CORRECT), editor.problemProperty());
    }

    /** Redrives per second as the operator set it, never less than one. */
    int pace() {
        return Math.max(1, redrivesPerSecond.get());
    }

    /** From now on nothing can go back, and the policy is not asked again. */
    void markIssued() {
        issued.set(true);
    }

    DecisionKind chosen() { return decision.get(); }
    ReadOnlyObjectProperty<DecisionKind> decisionProperty() { return decision.getReadOnlyProperty(); }
    ReadOnlyBooleanProperty allowedProperty(DecisionKind kind) { return allowed.get(kind).getReadOnlyProperty(); }
    ReadOnlyStringProperty choiceNoteProperty(DecisionKind kind) { return choiceNotes.get(kind).getReadOnlyProperty(); }
    ReadOnlyStringProperty actionTextProperty() { return actionText.getReadOnlyProperty(); }
    ReadOnlyStringProperty waitsForApprovalProperty() { return waitsForApproval.getReadOnlyProperty(); }
    ReadOnlyStringProperty planProperty() { return plan.getReadOnlyProperty(); }
    StringProperty reasonProperty() { return reason; }
    IntegerProperty redrivesPerSecondProperty() { return redrivesPerSecond; }
    ReadOnlyBooleanProperty issuedProperty() { return issued.getReadOnlyProperty(); }
}
