package dev.redrive.console.wizard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.BatchListener;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.ReconciliationResult;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.ToolSchemaRecord;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import dev.redrive.triage.request.RequestOptions;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The reconciliation wizard over one entry, a selection or a fingerprint group: evidence, side-effect
 * reconciliation, preconditions with the remedy for each failed one, the decision, and its result. Every step loads
 * off the FX thread. A step's "can continue" is a binding the wizard's Next button follows; the redrive itself is
 * checked again by the triage core in the transaction that records it, so nothing the window shows can let an
 * unchecked redrive through.
 */
public final class ReconciliationWizardViewModel {
    /** How often the result counters are brought up to date while a batch runs. */
    private static final long COUNT_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final WizardBackend backend;
    private final UiExecutor executor;
    private final ObservableList<WizardItem> items;
    private final boolean batch;

    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper workerToCheck = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper evidenceLoaded = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper readOnlyReason = new ReadOnlyStringWrapper("");
    private final ReadOnlyIntegerWrapper unsettled = new ReadOnlyIntegerWrapper();
    private final ReadOnlyStringWrapper reconcileText = new ReadOnlyStringWrapper("");
    private final ResultInput manualResult = new ResultInput();
    private final ReadOnlyBooleanWrapper checked = new ReadOnlyBooleanWrapper();
    private final ReadOnlyIntegerWrapper passing = new ReadOnlyIntegerWrapper();
    private final ReadOnlyBooleanWrapper anyDecision = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper checkSummary = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper blockedReason = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper schemaChange = new ReadOnlyStringWrapper("");
    private final ObservableList<CheckTally> tallies = FXCollections.observableArrayList();
    private final ObservableList<Remedy> remedies = FXCollections.observableArrayList();
    private final Map<String, List<ToolSchemaRecord>> schemaVersions = new HashMap<>();
    private final ReadOnlyObjectWrapper<DecisionKind> decision = new ReadOnlyObjectWrapper<>(DecisionKind.REDRIVE);
    private final Map<DecisionKind, ReadOnlyBooleanWrapper> allowed = new EnumMap<>(DecisionKind.class);
    private final Map<DecisionKind, ReadOnlyStringWrapper> choiceNotes = new EnumMap<>(DecisionKind.class);
    private final ReadOnlyStringWrapper actionText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper plan = new ReadOnlyStringWrapper("");
    /** Which rule of the four-eyes policy makes the chosen decision wait; empty when it is taken at once. */
    private final ReadOnlyStringWrapper waitsForApproval = new ReadOnlyStringWrapper("");
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty operator = new SimpleStringProperty("");
    private final IntegerProperty redrivesPerSecond = new SimpleIntegerProperty(5);
    private final ReadOnlyBooleanWrapper issued = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper deciding = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper pacing = new ReadOnlyBooleanWrapper();
    private final Map<ItemResult.Kind, ReadOnlyIntegerWrapper> resultCounts = new EnumMap<>(ItemResult.Kind.class);
    private final ReadOnlyStringWrapper resultSummary = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper stoppedNote = new ReadOnlyStringWrapper("");
    private final PayloadEditor editor;
    /** What a correction of the one item would dispatch (operation id, key, schema version); null until asked. */
    private CorrectionResult correctionPreview;
    private volatile boolean stopRequested;
    private EntryRef linked;
    /** The last decision and items the four-eyes policy was asked about. */
    private PolicyQuestion askedPolicy;
    /** The decision was picked by the wizard, not the operator: it follows what the checks allow. */
    private boolean decisionPicked = true;

    private record PolicyQuestion(DecisionKind kind, List<DecisionTarget> targets) {
    }

    /** An entry the console shows once the wizard closes. */
    public record EntryRef(String operationId, Long entryId) {
    }

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
        this.editor = new PayloadEditor(backend.redactor());
        for (DecisionKind kind : DecisionKind.values()) {
            allowed.put(kind, new ReadOnlyBooleanWrapper());
            choiceNotes.put(kind, new ReadOnlyStringWrapper(""));
        }
        for (ItemResult.Kind kind : ItemResult.Kind.values()) {
            resultCounts.put(kind, new ReadOnlyIntegerWrapper());
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

    // 1. Evidence ---------------------------------------------------------------------------------------------------

    /** Loads every item's operation, evidence and history, and what the connected role may decide. */
    public void loadEvidence() {
        executor.submit("Reading what your database role may decide", backend::access,
                access -> readOnlyReason.set(access.readOnlyReason()));
        load(false, () -> {
            evidenceLoaded.set(true);
            countUnsettled();
            WizardItem first = items.get(0);
            if (!batch && first.detailsProperty().get() != null) {
                editor.original(first.detailsProperty().get().operation().payload());
            }
        });
    }

    private void load(boolean acceptCurrentVersion, Runnable done) {
        run("Loading evidence", List.copyOf(items), item -> {
            if (item.entryOnly()) {
                DlqEntryRecord entry = backend.entry(item.dlqEntryId());
                executor.onUi(() -> item.loadedAlone(entry));
            } else {
                OperationDetails details = backend.load(item.operationId());
                executor.onUi(() -> item.loaded(details));
            }
            if (acceptCurrentVersion) {
                executor.onUi(() -> {
                    DlqEntryRecord shown = item.entryProperty().get();
                    if (shown != null) {
                        item.seenVersion(shown.version());
                    }
                });
            }
        }, done);
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

    /**
     * Records the operator's own finding (APPLIED or NOT_APPLIED) with the evidence they give and, for APPLIED, the
     * tool's result from {@link #manualResult()}: what a resolve takes, as {@code reconcile --applied --result} records.
     */
    public void recordByOperator(WizardItem item, ReconciliationOutcome outcome, String evidence) {
        if (item.entryOnly()) {
            reconcileText.set(item.subject() + ": nothing to reconcile, no operation ran for it.");
            return;
        }
        if (evidence == null || evidence.isBlank()) {
            reconcileText.set("Say what shows the effect was " + outcome.name().replace('_', ' ').toLowerCase()
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
        run("Recording the reconciliation", List.of(item), one -> {
            ReconciliationResult answer = backend.recordReconciliation(one.operationId(), outcome, evidence, result, who);
            executor.onUi(() -> reconciled(one, answer, "recorded by " + who + ": " + outcome + " · " + evidence
                    + (result == null ? "" : " · result " + TriageJson.compact(result))));
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
        Set<String> toolsLoaded = new LinkedHashSet<>();
        run("Checking preconditions", List.copyOf(items), item -> {
            PreconditionReport report = backend.check(item.target());
            String tool = item.entryOnly() ? null : schemaChangedTool(report);
            List<ToolSchemaRecord> versions = tool != null && toolsLoaded.add(tool) ? backend.schemaVersions(tool) : null;
            executor.onUi(() -> {
                if (versions != null) {
                    schemaVersions.put(tool, versions);
                }
                item.checked(report);
            });
        }, this::summarizeChecks);
    }

    /** Reads the entries again (accepting the versions they are at now) and checks them again. */
    public void refresh() {
        checked.set(false);
        load(true, this::recheck);
    }

    /** The tool whose current schema version is not the one the item was dispatched with; null when it is. */
    private static String schemaChangedTool(PreconditionReport report) {
        Map<String, Object> facts = report.result(PreconditionId.TOOL_SCHEMA).facts();
        Object current = facts.get("current_version");
        return current == null || current.equals(facts.get("dispatched_version")) ? null : Objects.toString(facts.get("tool"));
    }

    /**
     * Redrives the items of {@code tool} with {@code version}, which the operator declares compatible (null: back to
     * the dispatched version), and checks them again; the version is recorded with the command as the CLI's
     * {@code --schema-version} is.
     */
    public void chooseSchemaVersion(String tool, String version) {
        items.stream().filter(item -> tool.equals(item.tool())).forEach(item -> item.chooseSchemaVersion(version));
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

    private void summarizeChecks() {
        int pass = (int) items.stream().filter(WizardItem::passes).count();
        passing.set(pass);
        tallies.setAll(CheckTally.of(items));
        WizardItem first = items.get(0);
        if (batch) {
            checkSummary.set(pass + " of " + items.size() + " entries pass every check"
                    + (pass == items.size() ? "" : "; " + (items.size() - pass) + " blocked"));
            blockedReason.set(tallies.stream().map(CheckTally::line).collect(Collectors.joining("\n")));
            if (items.stream().noneMatch(item -> Arrays.stream(DecisionKind.values()).anyMatch(item::allows))) {
                blockedReason.set(blockedReason.get() + "\nNo entry can get any decision.");
            }
        } else {
            checkSummary.set(first.checkSummaryProperty().get());
            blockedReason.set(first.passes() ? "" : nextStep(first));
        }
        schemaChange.set(batch ? "" : describeSchemaChange(first));
        remedies.setAll(findRemedies());
        anyDecision.set(items.stream().anyMatch(item -> Arrays.stream(DecisionKind.values()).anyMatch(item::allows)));
        refreshChoices();
        checked.set(true);
    }

    /** For one blocked item: what is left to decide, or that nothing is. */
    private static String nextStep(WizardItem item) {
        String discard = item.whyNot(DecisionKind.DISCARD);
        if (discard != null) {
            return "No decision is possible: " + discard + ". " + item.reportProperty().get()
                    .result(PreconditionId.ENTRY_OPEN).explanation();
        }
        String schema = item.entryOnly() || item.reportProperty().get().result(PreconditionId.TOOL_SCHEMA).passed() ? ""
                : " (or choose the current schema version above, if the payload fits it)";
        // An entry alone is never redriven: the reason is no blocking state ("blocked by ...") but the entry's nature.
        String redrive = item.entryOnly() ? "No redrive: " : "A redrive is ";
        return redrive + item.whyNot(DecisionKind.REDRIVE) + schema + ". You can still decide: "
                + item.stillPossibleProperty().get() + ".";
    }

    private String describeSchemaChange(WizardItem item) {
        if (item.entryOnly()) {
            return "";
        }
        PreconditionResult schema = item.reportProperty().get().result(PreconditionId.TOOL_SCHEMA);
        Object current = schema.facts().get("current_version");
        String tool = item.tool();
        if (current == null || tool == null || Objects.equals(current, schema.facts().get("dispatched_version"))) {
            return "";
        }
        return SchemaVersions.describe(tool, Objects.toString(schema.facts().get("dispatched_version")), current.toString(),
                schemaVersions.getOrDefault(tool, List.of()),
                TriageJson.compact(item.detailsProperty().get().operation().payload()));
    }

    /** For one item: a remedy under each failed check. For a batch: the schema choices and a refresh. */
    private List<Remedy> findRemedies() {
        List<Remedy> found = new ArrayList<>();
        Map<String, String> schemaChoices = new LinkedHashMap<>();
        for (WizardItem item : items.filtered(item -> !item.entryOnly())) {
            PreconditionResult schema = item.reportProperty().get().result(PreconditionId.TOOL_SCHEMA);
            Object current = schema.facts().get("current_version");
            if (item.tool() != null && current != null && !current.equals(schema.facts().get("dispatched_version"))) {
                schemaChoices.put(item.tool(), item.chosenSchemaVersion() == null ? current.toString() : null);
            }
        }
        schemaChoices.forEach((tool, version) -> found.add(new Remedy(PreconditionId.TOOL_SCHEMA,
                Remedy.Action.CHOOSE_SCHEMA, version == null ? "Keep the dispatched version of " + tool
                : "Redrive with " + tool + " version " + version, tool, version)));
        boolean decidedElsewhere = items.stream().anyMatch(item -> !item.reportProperty().get()
                .result(PreconditionId.ENTRY_OPEN).passed());
        if (!batch) {
            WizardItem item = items.get(0);
            for (PreconditionResult failed : item.reportProperty().get().failed()) {
                if (failed.id() == PreconditionId.OWN_OPERATION) {
                    // Nothing to run again: the entry is handled elsewhere (resolve) or given up (discard).
                    if (item.allows(DecisionKind.DISCARD)) {
                        found.add(new Remedy(failed.id(), Remedy.Action.DISCARD, "Discard the entry…", null, null));
                    }
                    if (item.allows(DecisionKind.RESOLVE)) {
                        found.add(new Remedy(failed.id(), Remedy.Action.RESOLVE, "Resolve the entry…", null, null));
                    }
                } else if (failed.id() == PreconditionId.SIDE_EFFECT && item.allows(DecisionKind.RESOLVE)) {
                    found.add(new Remedy(failed.id(), Remedy.Action.RESOLVE, "Resolve as succeeded instead…", null, null));
                } else if ((failed.id() == PreconditionId.RUN_ACTIVE || failed.id() == PreconditionId.APPROVAL)
                        && item.allows(DecisionKind.DISCARD) && found.stream().noneMatch(r -> r.advances())) {
                    found.add(new Remedy(failed.id(), Remedy.Action.DISCARD, "Discard instead…", null, null));
                }
            }
        }
        if (decidedElsewhere) {
            found.add(new Remedy(PreconditionId.ENTRY_OPEN, Remedy.Action.REFRESH, "Refresh", null, null));
        }
        return found;
    }

    // 4. Decision ---------------------------------------------------------------------------------------------------

    /** Which decisions the items can get, with the counts and reasons each choice shows; keeps a possible choice. */
    private void refreshChoices() {
        for (DecisionKind kind : DecisionKind.values()) {
            List<WizardItem> eligible = eligible(kind);
            allowed.get(kind).set(!eligible.isEmpty());
            choiceNotes.get(kind).set(batch ? batchNote(kind, eligible.size()) : Objects.toString(items.get(0).whyNot(kind), ""));
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
    public void choose(DecisionKind kind) {
        decisionPicked = false;
        decision.set(kind);
    }

    /** "2 of 3 entries; 1 not: blocked by run cancelled". */
    private String batchNote(DecisionKind kind, int count) {
        Map<String, Long> whyNot = items.stream().filter(item -> !item.allows(kind))
                .collect(Collectors.groupingBy(item -> item.whyNot(kind), LinkedHashMap::new, Collectors.counting()));
        return count + " of " + items.size() + " entries" + (whyNot.isEmpty() ? "" : "; not "
                + whyNot.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", ")));
    }

    private List<WizardItem> eligible(DecisionKind kind) {
        if (kind == DecisionKind.CORRECT && batch) {
            return List.of();
        }
        return items.stream().filter(item -> item.allows(kind)).toList();
    }

    /** Asks which operation and key a correction would dispatch, with the schema version chosen: what step 4 names. */
    private void previewCorrection() {
        WizardItem item = items.get(0);
        DecisionTarget target = item.target();
        String payload = editor.originalText();
        executor.submit("Reading which attempt a correction would be", () -> backend.checkCorrection(target, payload),
                preview -> {
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
                    DecisionPlan.correctSummary(items.get(0), correctionPreview, editor)) : "");
            return;
        }
        List<WizardItem> eligible = eligible(kind);
        actionText.set(DecisionPlan.action(kind, eligible.size(), batch));
        plan.set(checked.get() || !eligible.isEmpty() ? DecisionPlan.underApproval(waitsForApproval.get(),
                DecisionPlan.summary(kind, eligible, items.size(), Math.max(1, redrivesPerSecond.get()))) : "");
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
        executor.submit("Reading the four-eyes policy", () -> backend.wouldWait(kind, targets).orElse(""), rule -> {
            if (decision.get() == kind) {
                waitsForApproval.set(rule);
                updatePlan();
            }
        });
    }

    // 5. Result -----------------------------------------------------------------------------------------------------

    /** Takes the chosen decision on every item that can get it; the others are left as they are and say why. */
    public void issue() {
        DecisionKind kind = decision.get();
        String why = reason.get().strip();
        String who = operator.get().strip();
        List<WizardItem> eligible = eligible(kind);
        items.stream().filter(item -> !item.allows(kind))
                .forEach(item -> item.outcome(ItemResult.skipped(kind, item.whyNot(kind))));
        long pause = kind == DecisionKind.REDRIVE && eligible.size() > 1 ? 1_000L / Math.max(1, redrivesPerSecond.get()) : 0;
        issued.set(true);
        deciding.set(true);
        pacing.set(pause > 0);
        String payload = editor.textProperty().get();
        List<DecisionTarget> targets = eligible.stream().map(WizardItem::target).toList();
        // As the CLI does: a decision the policy covers becomes one request for a second operator, taken by nobody now.
        executor.submit("Reading the four-eyes policy", () -> backend.requestIfCovered(kind, targets,
                requestOptions(kind, eligible, payload, pause), who, why), submission -> {
            if (submission.isPresent()) {
                eligible.forEach(item -> item.outcome(ItemResult.requested(kind, submission.get())));
                decided(eligible);
            } else {
                take(kind, eligible, who, why, payload);
            }
        }, failure -> {
            eligible.forEach(item -> item.outcome(ItemResult.error(failure.message())));
            decided(eligible);
            executor.report(failure);
        });
    }

    /** What a request keeps of how the decision is to be taken: the schema version chosen, the pace, the payload. */
    private RequestOptions requestOptions(DecisionKind kind, List<WizardItem> eligible, String payload, long pause) {
        Set<String> versions = eligible.stream().map(item -> item.target().chosenSchemaVersion())
                .filter(Objects::nonNull).collect(Collectors.toSet());
        String version = versions.size() == 1 ? versions.iterator().next() : null;
        return switch (kind) {
            case REDRIVE -> RequestOptions.redrive(version, pause > 0 ? redrivesPerSecond.get() : 0);
            case CORRECT -> RequestOptions.correction(payload, version);
            case RESOLVE, DISCARD -> RequestOptions.NONE;
        };
    }

    /** One item, or items some of which are entries alone, one at a time; many items of operations in chunks. */
    private void take(DecisionKind kind, List<WizardItem> eligible, String who, String why, String payload) {
        if (kind != DecisionKind.CORRECT && eligible.size() > 1
                && eligible.stream().noneMatch(item -> item.target().entryOnly())) {
            takeInChunks(kind, eligible, who, why);
            return;
        }
        run(kind == DecisionKind.REDRIVE ? "Issuing redrives" : kind == DecisionKind.CORRECT
                ? "Recording the correction" : "Recording decisions", eligible, item -> {
            if (kind == DecisionKind.CORRECT) {
                CorrectionResult corrected = backend.correct(item.target(), payload, who, why);
                executor.onUi(() -> item.corrected(corrected));
                return;
            }
            DecisionResult result = switch (kind) {
                case REDRIVE -> backend.redrive(item.target(), who, why);
                case RESOLVE -> backend.resolve(item.target(), null, who, why);
                case DISCARD -> backend.discard(item.target(), who, why);
                case CORRECT -> throw new IllegalStateException("a correction is recorded above");
            };
            executor.onUi(() -> item.decided(result));
        }, () -> decided(eligible), () -> decided(eligible));
    }

    /**
     * A decision on many items goes through the triage core's batch path, as the CLI's does: a chunk of items checked,
     * recorded and audited per transaction, published together, paced, and stopped between chunks; each item's result
     * comes back as it is decided, with the pace and the time left.
     */
    private void takeInChunks(DecisionKind kind, List<WizardItem> eligible, String who, String why) {
        String what = kind == DecisionKind.REDRIVE ? "Issuing redrives" : "Recording decisions";
        Map<Long, WizardItem> byEntry = new HashMap<>();
        eligible.forEach(item -> byEntry.put(item.dlqEntryId(), item));
        List<DecisionTarget> targets = eligible.stream().map(WizardItem::target).toList();
        double rate = kind == DecisionKind.REDRIVE ? Math.max(1, redrivesPerSecond.get()) : 0;
        int total = eligible.size();
        busy.set(true);
        progress.set(0);
        progressText.set(what + "…");
        stopRequested = false;
        long started = System.nanoTime();
        // The items no decision can reach are counted at once, the decided ones as they come.
        countResults();
        executor.submit(what, () -> backend.decideBatch(kind, targets, rate, who, why, new BatchListener() {
            /** When the counters were last brought up to date; read and written on the FX thread only. */
            private long countedAt = System.nanoTime();

            @Override
            public void itemDone(int done, int all, DecisionResult result) {
                String pace = BatchPace.line(done, total, System.nanoTime() - started);
                executor.onUi(() -> {
                    WizardItem item = byEntry.get(result.dlqEntryId());
                    if (item != null) {
                        item.decided(result);
                    }
                    progress.set((double) done / total);
                    progressText.set(what + ": " + done + " of " + total + pace);
                    // Counting reads every item: a few times a second is enough for the eye, and keeps a batch of
                    // thousands from counting them all once per item.
                    if (done == total || System.nanoTime() - countedAt > COUNT_EVERY_NANOS) {
                        countedAt = System.nanoTime();
                        countResults();
                    }
                });
            }

            @Override
            public boolean stopRequested() {
                return stopRequested;
            }
        }), report -> {
            busy.set(false);
            int count = report.items().size();
            progressText.set(what + ": " + count + " of " + total + " done" + (count < total ? " (stopped)" : ""));
            decided(eligible);
        }, failure -> {
            busy.set(false);
            progressText.set(failure.message());
            decided(eligible);
            executor.report(failure);
        });
    }

    private void decided(List<WizardItem> eligible) {
        deciding.set(false);
        pacing.set(false);
        long notReached = eligible.stream().filter(item -> item.outcomeProperty().get() == null).count();
        // The progress line is the next background step's (the worker is followed each second): this note stays.
        if (stopRequested && notReached > 0) {
            stoppedNote.set("Stopped after " + (eligible.size() - notReached) + " of " + eligible.size() + " redrives: "
                    + notReached + " not reached, left open.");
        }
        countResults();
    }

    private void countResults() {
        Map<ItemResult.Kind, Long> counts = items.stream().map(item -> item.outcomeProperty().get())
                .filter(Objects::nonNull).collect(Collectors.groupingBy(ItemResult::kind, Collectors.counting()));
        resultCounts.forEach((kind, count) -> count.set(counts.getOrDefault(kind, 0L).intValue()));
        resultSummary.set(Arrays.stream(ItemResult.Kind.values())
                .map(kind -> resultCounts.get(kind).get() + " " + kind.name().toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.joining(" · ")));
        workerToCheck.set(items.stream().anyMatch(WizardItem::isWaitingForWorker));
    }

    /**
     * Reads the redriven items again with the verification {@code op show} and reports give: did the worker run each
     * once (and does the tool count one effect), is it still waiting, or did it fail again?
     */
    public void verify() {
        List<WizardItem> waiting = items.stream().filter(WizardItem::isWaitingForWorker).toList();
        if (waiting.isEmpty() || busy.get()) {
            return;
        }
        run("Reading what the worker did", waiting, item -> {
            OperationDetails details = backend.load(item.runningOperationId());
            DecisionResult result = item.resultProperty().get();
            ItemResult run = ItemResult.afterRun(details, backend.verify(result.commandId()), result);
            String correction = item.correctionId();
            executor.onUi(() -> {
                // A correction's details are another operation's: the item keeps the evidence of the one it replaced.
                if (correction == null) {
                    item.loaded(details);
                }
                item.outcome(correction == null ? run : run.ofCorrection(correction));
            });
        }, this::countResults, this::countResults);
    }

    // plumbing ------------------------------------------------------------------------------------------------------

    @FunctionalInterface
    private interface ItemWork {
        void run(WizardItem item) throws Exception;
    }

    private void run(String what, List<WizardItem> work, ItemWork step, Runnable done) {
        run(what, work, step, done, () -> { });
    }

    /** Works through items in one background task, reporting progress per item; a failure names its item. */
    private void run(String what, List<WizardItem> work, ItemWork step, Runnable done, Runnable afterFailure) {
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
                    executor.onUi(() -> item.outcome(ItemResult.error(e.getMessage())));
                    throw new IllegalStateException(item.subject() + ": " + e.getMessage(), e);
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
            progressText.set(what + ": " + count + " of " + total + " done" + (count < total ? " (stopped)" : ""));
            done.run();
        }, failure -> {
            busy.set(false);
            progressText.set(failure.message());
            afterFailure.run();
            executor.report(failure);
        });
    }

    /** The operator followed the link from one item's result: the console shows where it is now once the wizard closes. */
    public void link(WizardItem item) {
        ItemResult result = item.outcomeProperty().get();
        linked = new EntryRef(item.runningOperationId(), result != null && result.newEntryId() != null
                ? result.newEntryId() : item.correctionId() != null ? null : item.dlqEntryId());
    }

    /** The entry to show after the wizard: the one linked to, else the first item's. */
    public EntryRef entryToShow() {
        return linked != null ? linked : new EntryRef(items.get(0).operationId(), items.get(0).dlqEntryId());
    }

    /** The entries a decision was recorded on, whose rows the console reads again; empty when nothing was decided. */
    public List<Long> decidedEntryIds() {
        return items.stream().filter(item -> item.resultProperty().get() != null && item.resultProperty().get().recorded())
                .map(item -> item.resultProperty().get().dlqEntryId()).filter(Objects::nonNull).toList();
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

    /** Next is disabled on the preconditions step only when no item can get any decision at all. */
    public BooleanBinding canLeavePreconditions() {
        return checked.and(busy.not()).and(anyDecision);
    }

    /**
     * The decision can be taken once it applies to some item and a reason and an operator are given; a correction also
     * needs a payload it can take.
     */
    public BooleanBinding canIssue() {
        return Bindings.createBooleanBinding(() -> !reason.get().isBlank() && !operator.get().isBlank()
                && !busy.get() && !issued.get() && allowed.get(decision.get()).get()
                && (decision.get() != DecisionKind.CORRECT || editor.isValid()), reason, operator, busy, issued,
                decision, allowed.get(DecisionKind.REDRIVE), allowed.get(DecisionKind.RESOLVE),
                allowed.get(DecisionKind.DISCARD), allowed.get(DecisionKind.CORRECT), editor.problemProperty());
    }

    public ObservableList<WizardItem> items() { return items; }
    /** The corrected payload of the one item, as the operator edits it for {@link DecisionKind#CORRECT}. */
    public PayloadEditor editor() { return editor; }
    public ReadOnlyBooleanProperty busyProperty() { return busy.getReadOnlyProperty(); }

    /** Whether an item waits for the worker (a redrive or a correction issued): a request or a discard does not. */
    public ReadOnlyBooleanProperty workerToCheckProperty() { return workerToCheck.getReadOnlyProperty(); }
    public ReadOnlyDoubleProperty progressProperty() { return progress.getReadOnlyProperty(); }
    public ReadOnlyStringProperty progressTextProperty() { return progressText.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty unsettledProperty() { return unsettled.getReadOnlyProperty(); }
    /** Empty when the connected role may decide; else why the database will refuse (a viewer looks, never decides). */
    public ReadOnlyStringProperty readOnlyReasonProperty() { return readOnlyReason.getReadOnlyProperty(); }
    public ReadOnlyStringProperty reconcileTextProperty() { return reconcileText.getReadOnlyProperty(); }
    /** The tool's result the operator gives with an APPLIED finding: optional, a JSON object. */
    public ResultInput manualResult() { return manualResult; }
    public ReadOnlyBooleanProperty checkedProperty() { return checked.getReadOnlyProperty(); }
    /** One item: "4 of 5 checks pass; blocked by: run cancelled". A batch: how many entries pass every check. */
    public ReadOnlyStringProperty checkSummaryProperty() { return checkSummary.getReadOnlyProperty(); }
    public ReadOnlyStringProperty blockedReasonProperty() { return blockedReason.getReadOnlyProperty(); }
    /** One item whose tool schema changed: both versions and what is known of the difference; empty otherwise. */
    public ReadOnlyStringProperty schemaChangeProperty() { return schemaChange.getReadOnlyProperty(); }
    /** A batch: each check that blocks items, how many, and what those can still get. */
    public ObservableList<CheckTally> tallies() { return FXCollections.unmodifiableObservableList(tallies); }
    public ObservableList<Remedy> remedies() { return FXCollections.unmodifiableObservableList(remedies); }
    /** The decision chosen; set it with {@link #choose}. */
    public ReadOnlyObjectProperty<DecisionKind> decisionProperty() { return decision.getReadOnlyProperty(); }
    /** Whether any item can get {@code kind}. */
    public ReadOnlyBooleanProperty allowedProperty(DecisionKind kind) { return allowed.get(kind).getReadOnlyProperty(); }
    /** One item: why it cannot get {@code kind} (empty when it can). A batch: how many can, and why the rest not. */
    public ReadOnlyStringProperty choiceNoteProperty(DecisionKind kind) { return choiceNotes.get(kind).getReadOnlyProperty(); }
    /** What the button that takes the decision says: "Redrive 1 operation", "Discard 12 entries". */
    public ReadOnlyStringProperty actionTextProperty() { return actionText.getReadOnlyProperty(); }
    /** What the decision will do: which attempt, which idempotency key, how fast. */
    /** The four-eyes rule that makes the chosen decision wait for a second operator; empty when it does not. */
    public ReadOnlyStringProperty waitsForApprovalProperty() { return waitsForApproval.getReadOnlyProperty(); }

    public ReadOnlyStringProperty planProperty() { return plan.getReadOnlyProperty(); }
    public StringProperty reasonProperty() { return reason; }
    public StringProperty operatorProperty() { return operator; }
    public IntegerProperty redrivesPerSecondProperty() { return redrivesPerSecond; }
    /** True from the moment the decision is issued: nothing can go back after that. */
    public ReadOnlyBooleanProperty issuedProperty() { return issued.getReadOnlyProperty(); }
    /** The decision is being recorded, item by item; the wizard closes once it is. */
    public ReadOnlyBooleanProperty decidingProperty() { return deciding.getReadOnlyProperty(); }
    /** A paced batch of redrives is being issued: it can be stopped. */
    public ReadOnlyBooleanProperty pacingProperty() { return pacing.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty resultCountProperty(ItemResult.Kind kind) { return resultCounts.get(kind).getReadOnlyProperty(); }
    /** Empty unless a batch was stopped: how many of its items were decided and that the rest are left open. */
    public ReadOnlyStringProperty stoppedNoteProperty() { return stoppedNote.getReadOnlyProperty(); }
    /** "1 succeeded · 0 failed · 0 blocked · 0 waiting". */
    public ReadOnlyStringProperty resultSummaryProperty() { return resultSummary.getReadOnlyProperty(); }
}
