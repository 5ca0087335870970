package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.ReconciliationResult;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.ReconciliationOutcome;
import dev.redrive.triage.detail.RedriveCommandRecord;
import dev.redrive.triage.detail.RedriveCommandStatus;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The reconciliation wizard over one entry, a selection or a fingerprint group: evidence, side-effect
 * reconciliation, preconditions, the decision, and its result. Every step loads off the FX thread. A step's
 * "can continue" is a binding the wizard's Next button follows; the redrive itself is checked again by the triage
 * core in the transaction that records it, so nothing the window shows can let an unchecked redrive through.
 */
public final class ReconciliationWizardViewModel {
    private final WizardBackend backend;
    private final UiExecutor executor;
    private final ObservableList<WizardItem> items;
    private final boolean batch;

    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper evidenceLoaded = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper readOnlyReason = new ReadOnlyStringWrapper("");
    private final ReadOnlyIntegerWrapper unsettled = new ReadOnlyIntegerWrapper();
    private final ReadOnlyStringWrapper reconcileText = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper checked = new ReadOnlyBooleanWrapper();
    private final ReadOnlyIntegerWrapper passing = new ReadOnlyIntegerWrapper();
    private final ReadOnlyStringWrapper checkSummary = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper blockedReason = new ReadOnlyStringWrapper("");
    private final ObjectProperty<DecisionKind> decision = new SimpleObjectProperty<>(DecisionKind.REDRIVE);
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty operator = new SimpleStringProperty("");
    private final IntegerProperty redrivesPerSecond = new SimpleIntegerProperty(5);
    private final ReadOnlyBooleanWrapper issued = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper resultSummary = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper verification = new ReadOnlyStringWrapper("");
    private volatile boolean stopRequested;
    private WizardItem linked;

    public ReconciliationWizardViewModel(WizardBackend backend, UiExecutor executor, List<WizardItem> items,
                                         String operatorName) {
        if (items.isEmpty()) {
            throw new IllegalArgumentException("the wizard needs at least one DLQ entry");
        }
        this.backend = backend;
        this.executor = executor;
        this.items = FXCollections.observableArrayList(items);
        this.batch = items.size() > 1;
        this.operator.set(operatorName);
    }

    // 1. Evidence ---------------------------------------------------------------------------------------------------

    /** Loads every item's operation, evidence and history, and what the connected role may decide. */
    public void loadEvidence() {
        executor.submit("Reading what your database role may decide", backend::access,
                access -> readOnlyReason.set(access.readOnlyReason()));
        List<WizardItem> snapshot = List.copyOf(items);
        run("Loading evidence", snapshot, item -> {
            OperationDetails details = backend.load(item.operationId());
            executor.onUi(() -> item.loaded(details));
        }, () -> {
            evidenceLoaded.set(true);
            countUnsettled();
        });
    }

    // 2. Reconcile ---------------------------------------------------------------------------------------------------

    /** Asks the tool about every item whose side effect is still POSSIBLE, and records each answer. */
    public void askToolForUnsettled() {
        List<WizardItem> open = items.stream().filter(WizardItem::isUnsettled).toList();
        String who = operator.get();
        run("Asking the tool", open, item -> {
            ReconciliationResult answer = backend.reconcileWithTool(item.operationId(), who);
            executor.onUi(() -> reconciled(item, answer, "tool answered " + answer.outcome()
                    + (answer.result() == null ? "" : " with " + answer.result())));
        }, this::countUnsettled);
    }

    /** Records the operator's own finding (APPLIED or NOT_APPLIED) with the evidence they give. */
    public void recordByOperator(WizardItem item, ReconciliationOutcome outcome, String evidence) {
        if (evidence == null || evidence.isBlank()) {
            reconcileText.set("Say what shows the effect was " + outcome.name().replace('_', ' ').toLowerCase()
                    + ": the evidence is kept with the decision.");
            return;
        }
        String who = operator.get();
        run("Recording the reconciliation", List.of(item), one -> {
            ReconciliationResult answer = backend.recordReconciliation(one.operationId(), outcome, evidence, who);
            executor.onUi(() -> reconciled(one, answer, "recorded by " + who + ": " + outcome + " · " + evidence));
        }, this::countUnsettled);
    }

    private void reconciled(WizardItem item, ReconciliationResult answer, String what) {
        item.seenVersion(answer.entryVersion());
        item.sideEffect(answer.sideEffect(), what);
    }

    private void countUnsettled() {
        long open = items.stream().filter(WizardItem::isUnsettled).count();
        long applied = items.stream().filter(i -> i.sideEffectProperty().get() == SideEffectState.APPLIED).count();
        unsettled.set((int) open);
        reconcileText.set(open == 0
                ? (applied > 0 ? applied + " applied: resolve " + (applied == 1 ? "it" : "them")
                + " as succeeded instead of re-running. " : "") + "Every side effect is settled."
                : open + " side effect(s) still POSSIBLE: ask the tool or record what you found before going on.");
    }

    // 3. Preconditions -----------------------------------------------------------------------------------------------

    /** Checks every precondition of every item against the store's facts now. */
    public void recheck() {
        checked.set(false);
        List<WizardItem> snapshot = List.copyOf(items);
        run("Checking preconditions", snapshot, item -> {
            PreconditionReport report = backend.check(item.target());
            executor.onUi(() -> item.checked(report));
        }, this::summarizeChecks);
    }

    private void summarizeChecks() {
        int pass = (int) items.stream().filter(WizardItem::passes).count();
        passing.set(pass);
        Map<String, Long> blockedBy = new LinkedHashMap<>();
        for (WizardItem item : items) {
            PreconditionResult failure = item.firstFailure();
            if (failure != null) {
                blockedBy.merge(failure.id().title(), 1L, Long::sum);
            }
        }
        checkSummary.set(pass + " pass" + (blockedBy.isEmpty() ? "" : " · " + (items.size() - pass) + " blocked ("
                + blockedBy.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", ")) + ")"));
        blockedReason.set(batch ? (pass == 0 ? "Every item is blocked: nothing can be redriven." : "")
                : items.get(0).passes() ? "" : items.get(0).reportProperty().get().failed().stream()
                .map(PreconditionResult::explanation).collect(Collectors.joining("\n")));
        checked.set(true);
    }

    // 4. Decision and 5. Result -------------------------------------------------------------------------------------

    /** Takes the chosen decision on every eligible item; a redrive only on items whose checks passed. */
    public void issue() {
        DecisionKind kind = decision.get();
        String why = reason.get().strip();
        String who = operator.get().strip();
        List<WizardItem> eligible = kind == DecisionKind.REDRIVE
                ? items.stream().filter(WizardItem::passes).toList() : List.copyOf(items);
        items.stream().filter(item -> !eligible.contains(item))
                .forEach(item -> item.outcome("skipped: " + item.checkSummaryProperty().get()));
        long pause = kind == DecisionKind.REDRIVE && eligible.size() > 1 ? 1_000L / Math.max(1, redrivesPerSecond.get()) : 0;
        run(kind == DecisionKind.REDRIVE ? "Issuing redrives" : "Recording decisions", eligible, item -> {
            DecisionResult result = switch (kind) {
                case REDRIVE -> backend.redrive(item.target(), who, why);
                case RESOLVE -> backend.resolve(item.target(), who, why);
                case DISCARD -> backend.discard(item.target(), who, why);
            };
            executor.onUi(() -> item.decided(result));
            if (pause > 0) {
                Thread.sleep(pause);
            }
        }, () -> {
            issued.set(true);
            summarizeResults();
        });
    }

    /** Counts per outcome in a fixed order (the outcome's declaration order, skipped items last). */
    private void summarizeResults() {
        Map<Integer, Long> counts = new TreeMap<>();
        Map<Integer, String> labels = new TreeMap<>();
        for (WizardItem item : items) {
            DecisionResult result = item.resultProperty().get();
            int order = result == null ? Integer.MAX_VALUE : result.outcome().ordinal();
            counts.merge(order, 1L, Long::sum);
            labels.put(order, result == null ? "skipped" : label(result.outcome()));
        }
        resultSummary.set(counts.entrySet().stream().map(e -> e.getValue() + " " + labels.get(e.getKey()))
                .collect(Collectors.joining(" · ")));
    }

    private static String label(DecisionOutcome outcome) {
        return switch (outcome) {
            case DONE -> "done";
            case BLOCKED -> "blocked";
            case ALREADY_DECIDED -> "already decided by someone else";
            case NOT_PUBLISHED -> "recorded but not published";
            default -> outcome.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        };
    }

    /** Reloads redriven items: did the worker run each exactly once, with the new attempt and the same key? */
    public void verify() {
        List<WizardItem> redriven = items.stream().filter(item -> item.resultProperty().get() != null
                && item.resultProperty().get().commandId() != null).toList();
        List<String> lines = new ArrayList<>();
        run("Verifying the redrives", redriven, item -> {
            OperationDetails details = backend.load(item.operationId());
            String verdict = exactlyOnce(details, item.resultProperty().get());
            executor.onUi(() -> {
                item.outcome(verdict);
                lines.add(item.operationId() + ": " + verdict);
            });
        }, () -> verification.set(String.join("\n", lines)));
    }

    /** What the store says about one redrive command: not yet run, or run (once, or more than once). */
    static String exactlyOnce(OperationDetails details, DecisionResult result) {
        Optional<RedriveCommandRecord> command = details.redriveCommands().stream()
                .filter(c -> c.commandId().equals(result.commandId())).findFirst();
        if (command.isEmpty()) {
            return "command " + result.commandId() + " not found";
        }
        long runs = details.attempts().stream().filter(a -> a.attempt() == result.newAttempt()).count();
        long successes = details.attempts().stream()
                .filter(a -> a.attempt() == result.newAttempt() && a.succeeded()).count();
        RedriveCommandStatus status = command.get().status();
        if (status == RedriveCommandStatus.ISSUED || status == RedriveCommandStatus.EXECUTING) {
            return "command " + status + ", waiting for a worker";
        }
        if (status == RedriveCommandStatus.SUCCEEDED && runs == 1 && successes == 1) {
            return "succeeded exactly once: attempt " + result.newAttempt() + " with idempotency key "
                    + details.operation().idempotencyKey();
        }
        return "command " + status + " after " + runs + " run(s) of attempt " + result.newAttempt()
                + " (" + successes + " succeeded)";
    }

    // plumbing ------------------------------------------------------------------------------------------------------

    @FunctionalInterface
    private interface ItemWork {
        void run(WizardItem item) throws Exception;
    }

    /** Works through items in one background task, reporting progress per item; a failure names its item. */
    private void run(String what, List<WizardItem> work, ItemWork step, Runnable done) {
        busy.set(true);
        progress.set(0);
        progressText.set(what + "…");
        int total = work.size();
        stopRequested = false;
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
                    executor.onUi(() -> item.outcome("failed: " + e.getMessage()));
                    throw new IllegalStateException(item.operationId() + ": " + e.getMessage(), e);
                }
                int finished = i + 1;
                executor.onUi(() -> {
                    progress.set((double) finished / total);
                    progressText.set(what + ": " + finished + " of " + total);
                });
            }
            return total;
        }, count -> {
            busy.set(false);
            progressText.set(what + ": " + count + " of " + total + " done");
            done.run();
        }, failure -> {
            busy.set(false);
            progressText.set(failure.message());
            executor.report(failure);
        });
    }

    /** The operator followed the link back to one item's entry: the window shows it once the wizard closes. */
    public void link(WizardItem item) {
        linked = item;
    }

    /** The entry to show after the wizard: the one linked to, else the first. */
    public WizardItem entryToShow() {
        return linked != null ? linked : items.get(0);
    }

    /** Stops a running batch after the item in hand; items not reached are left as they are. */
    public void stop() {
        stopRequested = true;
    }

    public boolean isBatch() {
        return batch;
    }

    /** Next is allowed on the evidence step once everything is loaded. */
    public BooleanBinding canLeaveEvidence() {
        return evidenceLoaded.and(busy.not());
    }

    /** Next is allowed on the reconcile step once no side effect is POSSIBLE any more. */
    public BooleanBinding canLeaveReconcile() {
        return evidenceLoaded.and(busy.not()).and(unsettled.isEqualTo(0));
    }

    /** Next is allowed on the preconditions step when every check passes (a batch: when any item passes). */
    public BooleanBinding canLeavePreconditions() {
        return checked.and(busy.not()).and(batch ? passing.greaterThan(0) : passing.isEqualTo(items.size()));
    }

    /** The decision can be taken once a reason and an operator are given. */
    public BooleanBinding canIssue() {
        return Bindings.createBooleanBinding(() -> !reason.get().isBlank() && !operator.get().isBlank()
                && !busy.get(), reason, operator, busy);
    }

    public ObservableList<WizardItem> items() { return items; }
    public ReadOnlyBooleanProperty busyProperty() { return busy.getReadOnlyProperty(); }
    public ReadOnlyDoubleProperty progressProperty() { return progress.getReadOnlyProperty(); }
    public ReadOnlyStringProperty progressTextProperty() { return progressText.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty unsettledProperty() { return unsettled.getReadOnlyProperty(); }
    /** Empty when the connected role may decide; else why the database will refuse (a viewer looks, never decides). */
    public ReadOnlyStringProperty readOnlyReasonProperty() { return readOnlyReason.getReadOnlyProperty(); }
    public ReadOnlyStringProperty reconcileTextProperty() { return reconcileText.getReadOnlyProperty(); }
    public ReadOnlyStringProperty checkSummaryProperty() { return checkSummary.getReadOnlyProperty(); }
    public ReadOnlyStringProperty blockedReasonProperty() { return blockedReason.getReadOnlyProperty(); }
    public ObjectProperty<DecisionKind> decisionProperty() { return decision; }
    public StringProperty reasonProperty() { return reason; }
    public StringProperty operatorProperty() { return operator; }
    public IntegerProperty redrivesPerSecondProperty() { return redrivesPerSecond; }
    public ReadOnlyBooleanProperty issuedProperty() { return issued.getReadOnlyProperty(); }
    public ReadOnlyStringProperty resultSummaryProperty() { return resultSummary.getReadOnlyProperty(); }
    public ReadOnlyStringProperty verificationProperty() { return verification.getReadOnlyProperty(); }
}
