package dev.redrive.console.wizard;

import dev.redrive.console.detail.OperationDetailViewModel;
import dev.redrive.console.timeline.AttemptTimeline;
import dev.redrive.console.ui.Clipboards;
import dev.redrive.console.ui.DialogSize;
import dev.redrive.console.ui.Fxml;
import dev.redrive.console.ui.Shown;
import dev.redrive.console.ui.SideEffectBadge;
import dev.redrive.console.ui.TabMovesFocus;
import dev.redrive.console.ui.TypedSpinner;
import dev.redrive.console.ui.VersionText;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Toggle;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import javafx.util.Duration;
import org.controlsfx.dialog.WizardPane;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The reconciliation wizard (ControlsFX {@link org.controlsfx.dialog.Wizard}, see {@link WizardSteps}): five pages
 * whose Next button follows the view-model's "can continue" bindings.
 */
public final class ReconciliationWizardView {
    @FXML private VBox evidencePage;
    @FXML private Label evidenceTitle;
    @FXML private GridPane evidenceFacts;
    @FXML private Label evidenceOperation;
    @FXML private Label evidenceError;
    @FXML private SideEffectBadge evidenceBadge;
    @FXML private Label evidenceSchema;
    @FXML private Label evidenceRuntime;
    @FXML private Label evidenceRun;
    @FXML private AttemptTimeline evidenceTimeline;
    @FXML private TableView<WizardItem> evidenceTable;
    @FXML private VBox reconcilePage;
    @FXML private TableView<WizardItem> reconcileTable;
    @FXML private Button askToolButton;
    @FXML private ComboBox<ReconciliationOutcome> manualOutcome;
    @FXML private TextField manualEvidence;
    @FXML private Button recordButton;
    @FXML private HBox manualResultRow;
    @FXML private TextField manualResult;
    @FXML private Label manualResultProblem;
    @FXML private Label reconcileMessage;
    @FXML private Label reconcileReadOnly;
    @FXML private Label decisionReadOnly;
    @FXML private VBox preconditionsPage;
    @FXML private Label checkSummary;
    @FXML private ScrollPane checkScroll;
    @FXML private VBox checkList;
    @FXML private TableView<CheckTally> tallyTable;
    @FXML private HBox batchRemedies;
    @FXML private TableView<WizardItem> checkTable;
    @FXML private Label blockedReason;
    @FXML private VBox decisionPage;
    @FXML private ToggleGroup decisionGroup;
    @FXML private Label decisionScope;
    @FXML private RadioButton redriveChoice;
    @FXML private RadioButton resolveChoice;
    @FXML private RadioButton discardChoice;
    @FXML private Label redriveNote;
    @FXML private Label resolveNote;
    @FXML private Label discardNote;
    @FXML private RadioButton correctChoice;
    @FXML private Label correctNote;
    @FXML private VBox correctionEditor;
    @FXML private TextArea originalPayload;
    @FXML private TextArea correctedPayload;
    @FXML private Label payloadProblem;
    @FXML private Label payloadChanges;
    @FXML private TextArea reasonArea;
    @FXML private TextField operatorField;
    @FXML private Label rateLabel;
    @FXML private Spinner<Integer> rateSpinner;
    @FXML private Label decisionPlan;
    @FXML private Label approvalNote;
    @FXML private VBox resultPage;
    @FXML private Label resultGuide;
    @FXML private ProgressBar progressBar;
    @FXML private Label progressText;
    @FXML private Label stoppedNote;
    @FXML private HBox resultCounts;
    @FXML private Label itemOutcome;
    @FXML private Hyperlink newEntryLink;
    @FXML private TableView<WizardItem> resultTable;
    @FXML private Button verifyButton;

    /** What the pages need at the least: the tables' columns and the decision page's choices without truncation. */
    private static final DialogSize SMALLEST = new DialogSize(860, 560);
    private static final PseudoClass BLOCKED = PseudoClass.getPseudoClass("blocked");

    private ReconciliationWizardViewModel model;
    private WizardSteps steps;
    private final Timeline followWorker = new Timeline(new KeyFrame(Duration.seconds(1), event -> followWorker()));

    public static ReconciliationWizardView load(ReconciliationWizardViewModel model, Window owner, String stylesheet) {
        Fxml.Loaded<ReconciliationWizardView> loaded = Fxml.load("/console/wizard/ReconciliationWizard.fxml");
        ReconciliationWizardView view = loaded.controller();
        view.model = model;
        view.initializeParts();
        view.bindFieldsToModel();
        view.buildWizard(owner, stylesheet);
        return view;
    }

    private void initializeParts() {
        boolean batch = model.isBatch();
        showIf(!batch, evidenceFacts, evidenceTimeline, checkScroll, itemOutcome);
        showIf(batch, evidenceTable, tallyTable, batchRemedies, checkTable, resultTable, rateLabel, rateSpinner);
        evidenceTitle.setText(batch ? model.items().size() + " DLQ entries" : "Evidence");
        WizardTables.setUp(model, evidenceTable, reconcileTable, checkTable, resultTable, tallyTable, this::openItem);
        manualOutcome.setItems(FXCollections.observableArrayList(ReconciliationOutcome.APPLIED, ReconciliationOutcome.NOT_APPLIED));
        manualOutcome.setValue(ReconciliationOutcome.NOT_APPLIED);
        TabMovesFocus.install(reasonArea, correctedPayload, originalPayload);
        rateSpinner.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, 100_000, 5));
        TypedSpinner.editable(rateSpinner);
        decisionScope.setText(batch ? "Decide about " + model.items().size()
                + " entries. Each decision goes only to the entries that can get it; each is checked again as it is recorded."
                : "Decide about " + model.items().get(0).subject() + ".");
        resultCounts.getChildren().setAll(ResultGuide.counts(model));
    }

    private static void showIf(boolean shown, Node... nodes) {
        for (Node node : nodes) {
            node.setVisible(shown);
            node.setManaged(shown);
        }
    }

    private void bindFieldsToModel() {
        if (!model.isBatch()) {
            WizardItem item = model.items().get(0);
            item.detailsProperty().addListener((obs, was, details) -> showEvidence(details));
            item.entryProperty().addListener((obs, was, entry) -> {
                if (item.entryOnly()) {
                    showEntryAlone(entry);
                }
            });
            item.sideEffectProperty().addListener((obs, was, state) -> evidenceBadge.show(state));
            item.outcomeProperty().addListener((obs, was, now) -> showOutcome(now));
        }
        model.checkedProperty().addListener((obs, was, now) -> {
            if (now) {
                showChecks();
            }
        });
        askToolButton.disableProperty().bind(model.busyProperty().or(model.unsettledProperty().isEqualTo(0)));
        reconcileMessage.textProperty().bind(model.reconcileTextProperty());
        bindManualResult();
        for (Label readOnly : List.of(reconcileReadOnly, decisionReadOnly)) {
            readOnly.textProperty().bind(model.readOnlyReasonProperty());
            Shown.when(model.readOnlyReasonProperty().isNotEmpty(), readOnly);
        }
        checkSummary.textProperty().bind(model.checkSummaryProperty());
        blockedReason.textProperty().bind(model.blockedReasonProperty());
        bindChoice(redriveChoice, redriveNote, DecisionKind.REDRIVE);
        bindChoice(resolveChoice, resolveNote, DecisionKind.RESOLVE);
        bindChoice(discardChoice, discardNote, DecisionKind.DISCARD);
        bindChoice(correctChoice, correctNote, DecisionKind.CORRECT);
        bindEditor();
        decisionGroup.selectedToggleProperty().addListener((obs, was, toggle) -> {
            if (toggle != null && kind(toggle) != model.decisionProperty().get()) {
                model.choose(kind(toggle));
            }
        });
        model.decisionProperty().addListener((obs, was, kind) -> decisionGroup.selectToggle(choice(kind)));
        decisionGroup.selectToggle(choice(model.decisionProperty().get()));
        reasonArea.textProperty().bindBidirectional(model.reasonProperty());
        operatorField.textProperty().bindBidirectional(model.operatorProperty());
        rateSpinner.valueProperty().addListener((obs, was, rate) -> model.redrivesPerSecondProperty().set(rate));
        decisionPlan.textProperty().bind(Bindings.concat("What will happen: ", model.planProperty()));
        // Under a four-eyes policy the act becomes a request: said before anything is issued, and on the button.
        approvalNote.textProperty().bind(Bindings.concat("Four-eyes: this decision waits for a second operator's "
                + "approval (", model.waitsForApprovalProperty(), "). Issuing it records a request under Requests; "
                + "nothing is decided until someone else approves it."));
        Shown.when(model.waitsForApprovalProperty().isNotEmpty(), approvalNote);
        bindResult();
        for (WizardItem item : model.items()) {
            for (ObservableValue<?> value : List.of(item.detailsProperty(), item.sideEffectProperty(),
                    item.reconciliationProperty(), item.checkSummaryProperty(), item.outcomeProperty())) {
                value.addListener((obs, was, now) -> refreshTables());
            }
        }
    }

    /** The result step: where the operator is, the progress, and the worker's check of a redrive. */
    private void bindResult() {
        resultGuide.textProperty().bind(ResultGuide.of(model));
        progressBar.progressProperty().bind(model.progressProperty());
        progressText.textProperty().bind(model.progressTextProperty());
        stoppedNote.textProperty().bind(model.stoppedNoteProperty());
        Shown.when(model.stoppedNoteProperty().isNotEmpty(), stoppedNote);
        verifyButton.disableProperty().bind(model.issuedProperty().not().or(model.busyProperty()));
        // Only a redrive or a correction waits for the worker: a request, a resolve or a discard has nothing to check.
        Shown.when(model.workerToCheckProperty(), verifyButton);
    }

    /** The tool's result goes with an APPLIED finding only; a result that is no JSON object says so and is not recorded. */
    private void bindManualResult() {
        BooleanBinding applied = manualOutcome.valueProperty().isEqualTo(ReconciliationOutcome.APPLIED);
        Shown.when(applied, manualResultRow);
        manualResult.setPromptText("{\"charge_id\":\"ch_1\"} (optional: resolving as succeeded takes it)");
        manualResult.textProperty().bindBidirectional(model.manualResult().textProperty());
        manualResultProblem.textProperty().bind(model.manualResult().problemProperty());
        BooleanBinding problem = applied.and(model.manualResult().problemProperty().isNotEmpty());
        Shown.when(problem, manualResultProblem);
        recordButton.disableProperty().bind(problem.or(model.busyProperty()));
    }

    /** The payload editor shows only with the correction chosen: the original on the left, the correction on the right. */
    private void bindEditor() {
        PayloadEditor editor = model.editor();
        BooleanBinding correcting = model.decisionProperty().isEqualTo(DecisionKind.CORRECT);
        Shown.when(correcting, correctionEditor);
        originalPayload.textProperty().bind(editor.originalTextProperty());
        correctedPayload.textProperty().bindBidirectional(editor.textProperty());
        payloadProblem.textProperty().bind(editor.problemProperty());
        Shown.when(editor.problemProperty().isNotEmpty(), payloadProblem);
        payloadChanges.textProperty().bind(editor.changesProperty());
        Shown.when(editor.changesProperty().isNotEmpty(), payloadChanges);
    }

    private void bindChoice(RadioButton choice, Label note, DecisionKind kind) {
        choice.disableProperty().bind(model.allowedProperty(kind).not());
        note.textProperty().bind(model.choiceNoteProperty(kind));
        Shown.when(model.choiceNoteProperty(kind).isNotEmpty(), note);
    }

    private void refreshTables() {
        for (TableView<?> table : List.of(evidenceTable, reconcileTable, checkTable, resultTable, tallyTable)) {
            table.refresh();
        }
    }

    private DecisionKind kind(Toggle toggle) {
        return toggle == resolveChoice ? DecisionKind.RESOLVE : toggle == discardChoice ? DecisionKind.DISCARD
                : toggle == correctChoice ? DecisionKind.CORRECT : DecisionKind.REDRIVE;
    }

    private Toggle choice(DecisionKind kind) {
        return switch (kind) {
            case REDRIVE -> redriveChoice;
            case RESOLVE -> resolveChoice;
            case DISCARD -> discardChoice;
            case CORRECT -> correctChoice;
        };
    }

    private void showEvidence(OperationDetails details) {
        if (details == null) {
            return;
        }
        WizardItem item = model.items().get(0);
        DlqEntryRecord entry = WizardTables.entry(item).orElse(null);
        evidenceOperation.setText(details.operationId() + " · attempt " + details.operation().attempt()
                + " · key " + details.operation().idempotencyKey());
        evidenceError.setText(entry == null ? "" : entry.errorClass() + ": " + entry.errorMessage());
        String then = entry != null && entry.toolSchemaVersion() != null ? entry.toolSchemaVersion()
                : details.operation().toolSchemaVersion();
        String now = details.currentToolSchemaVersion();
        evidenceSchema.setText(VersionText.of(details.operation().tool(), then) + " → "
                + (now == null ? "not registered" : VersionText.of(now) + (now.equals(then) ? " (unchanged)" : " (CHANGED)")));
        evidenceRuntime.setText(Objects.toString(details.operation().runtimeVersion(), ""));
        evidenceRun.setText(details.operation().runId() + (details.run() == null ? "" : " · " + details.run().status()));
        evidenceTimeline.setData(OperationDetailViewModel.timelineOf(details, entry));
    }

    /** An entry without an operation: what the message said and why it was refused; no attempts to draw. */
    private void showEntryAlone(DlqEntryRecord entry) {
        if (entry == null) {
            return;
        }
        evidenceOperation.setText("DLQ entry " + entry.id() + " · no operation of its own"
                + (entry.operationId() == null ? "" : " · names " + entry.operationId()));
        evidenceError.setText(entry.errorClass() + " " + Objects.toString(entry.errorCode(), "") + ": " + entry.errorMessage());
        evidenceSchema.setText(entry.tool() == null ? "no tool named" : VersionText.of(entry.tool(), entry.toolSchemaVersion()));
        evidenceRuntime.setText(Objects.toString(entry.runtimeVersion(), ""));
        evidenceRun.setText(entry.runId() == null ? "none named" : entry.runId() + " (named by the message)");
        showIf(false, evidenceTimeline);
    }

    private void showChecks() {
        blockedReason.pseudoClassStateChanged(BLOCKED, !model.canLeavePreconditions().get());
        if (model.isBatch()) {
            batchRemedies.getChildren().setAll(CheckList.buttons(model.remedies(), this::takeRemedy));
        } else {
            CheckList.render(checkList, model.items().get(0).reportProperty().get(), model.remedies(),
                    model.schemaChangeProperty().get(), this::takeRemedy);
            checkScroll.setVvalue(0);
        }
    }

    /** Takes a remedy; one that decides instead goes straight on to the decision step with that choice made. */
    private void takeRemedy(Remedy remedy) {
        model.apply(remedy);
        if (remedy.advances()) {
            steps.next();
        }
    }

    /** What happened, with one click to where the operation is now: a failed redrive's new entry, or the correction. */
    private void showOutcome(ItemResult outcome) {
        itemOutcome.setText(outcome == null ? "" : outcome.text());
        String correction = model.items().get(0).correctionId();
        boolean entry = outcome != null && outcome.newEntryId() != null;
        newEntryLink.setText(entry ? "Show entry " + outcome.newEntryId() + " in the console"
                : correction != null ? "Show correction " + correction + " in the console" : "");
        showIf(entry || correction != null, newEntryLink);
    }

    private void buildWizard(Window owner, String stylesheet) {
        steps = new WizardSteps(owner, model);
        WizardPane evidence = steps.page("1 · Evidence", evidencePage, StepHelp.EVIDENCE, model::canLeaveEvidence,
                pane -> model.loadEvidence());
        WizardPane reconcile = steps.page("2 · Reconcile the side effect", reconcilePage, StepHelp.RECONCILE,
                model::canLeaveReconcile, pane -> { });
        WizardPane preconditions = steps.page("3 · Preconditions", preconditionsPage, StepHelp.PRECONDITIONS,
                model::canLeavePreconditions, pane -> model.recheck());
        WizardPane decision = steps.page("4 · Decision", decisionPage, StepHelp.DECISION, model::canIssue,
                pane -> steps.armTheAct(pane, reasonArea));
        steps.issueOnShortcut(decision);
        WizardPane result = steps.page("5 · Result", resultPage, StepHelp.RESULT,
                () -> model.issuedProperty().and(model.decidingProperty().not()), pane -> {
                    steps.holdAfterIssuing(pane);
                    if (!model.issuedProperty().get()) {
                        model.issue();
                    }
                    followWorker.play();
                });
        List<String> stylesheets = new ArrayList<>();
        if (stylesheet != null) {
            stylesheets.add(stylesheet);
        }
        stylesheets.add(ReconciliationWizardView.class.getResource("/console/wizard/wizard.css").toExternalForm());
        steps.show(List.of(evidence, reconcile, preconditions, decision, result), DialogSize.over(owner, SMALLEST),
                SMALLEST, stylesheets);
        steps.onHidden(followWorker::stop);
        followWorker.setCycleCount(Timeline.INDEFINITE);
    }

    /** While a redrive waits for the worker, reads the store again each second, so the page shows how it ended. */
    private void followWorker() {
        if (model.resultCountProperty(ItemResult.Kind.WAITING).get() == 0 && !model.busyProperty().get()
                && model.issuedProperty().get()) {
            followWorker.stop();
            return;
        }
        model.verify();
    }

    /** Opens the wizard and waits until it is closed. */
    public void showAndWait() {
        steps.showAndWait();
    }

    @FXML
    private void askTool() {
        model.askToolForUnsettled();
    }

    @FXML
    private void recordManual() {
        WizardItem item = model.isBatch() ? reconcileTable.getSelectionModel().getSelectedItem() : model.items().get(0);
        if (item == null) {
            item = model.items().stream().filter(WizardItem::isUnsettled).findFirst().orElse(null);
        }
        if (item != null && manualOutcome.getValue() != null) {
            model.recordByOperator(item, manualOutcome.getValue(), manualEvidence.getText());
        }
    }

    @FXML
    private void recheck() {
        model.recheck();
    }

    @FXML
    private void verify() {
        model.verify();
    }

    @FXML
    private void showNewEntry() {
        openItem(model.items().get(0));
    }

    /** Closes the wizard on where the item is now: the console then shows it. */
    private void openItem(WizardItem item) {
        model.link(item);
        steps.hide();
    }

    @FXML
    private void copyIds() {
        Clipboards.copy(model.items().stream().map(WizardItem::operationId).filter(Objects::nonNull)
                .collect(Collectors.joining("\n")));
    }
}
