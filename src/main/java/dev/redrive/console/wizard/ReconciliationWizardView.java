package dev.redrive.console.wizard;

import dev.redrive.console.detail.OperationDetailViewModel;
import dev.redrive.console.timeline.AttemptTimeline;
import dev.redrive.console.ui.TypedSpinner;
import dev.redrive.console.ui.Clipboards;
import dev.redrive.console.ui.DialogSize;
import dev.redrive.console.ui.Fxml;
import dev.redrive.console.ui.SideEffectBadge;
import dev.redrive.console.ui.VersionText;
import dev.redrive.console.ui.WholeTextCell;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import java.util.Locale;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.css.PseudoClass;
import javafx.event.ActionEvent;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.OverrunStyle;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Toggle;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import javafx.util.Duration;
import org.controlsfx.dialog.Wizard;
import org.controlsfx.dialog.WizardPane;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The reconciliation wizard (ControlsFX {@link Wizard}): five pages whose Next button follows the view-model's
 * "can continue" bindings.
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
    private static final PseudoClass EMPTY = PseudoClass.getPseudoClass("empty");
    private static final PseudoClass BLOCKED = PseudoClass.getPseudoClass("blocked");

    private ReconciliationWizardViewModel model;
    private Wizard wizard;
    private Stage window;
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
        evidenceTable.getColumns().setAll(List.of(
                column("Operation", 260, WizardItem::subject),
                column("Class", 150, item -> entry(item).map(e -> e.errorClass().name()).orElse("")),
                badgeColumn(),
                column("Last error", 340, item -> entry(item).map(DlqEntryRecord::errorMessage).orElse(""))));
        reconcileTable.getColumns().setAll(List.of(
                column("Operation", 260, WizardItem::subject),
                badgeColumn(),
                column("Reconciliation", 460, item -> item.reconciliationProperty().get())));
        checkTable.getColumns().setAll(List.of(
                column("Operation", 260, WizardItem::subject),
                column("Checks", 380, item -> item.checkSummaryProperty().get()),
                column("Can still get", 180, item -> item.stillPossibleProperty().get())));
        tallyTable.getColumns().setAll(List.of(
                tallyColumn("Condition", 200, tally -> tally.check().title()),
                tallyColumn("Blocks", 80, tally -> tally.blocked() + (tally.blocked() == 1 ? " entry" : " entries")),
                tallyColumn("Found", 260, CheckTally::found),
                tallyColumn("They can still get", 260, CheckTally::stillPossible)));
        tallyTable.setItems(model.tallies());
        tallyTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        tallyTable.setPlaceholder(new Label("No check blocks any entry."));
        TableColumn<WizardItem, String> operation = column("Operation", 260, WizardItem::subject);
        // Operation ids of one batch share their start (the run): the end tells them apart, so it is the middle that
        // gives way.
        operation.setCellFactory(c -> {
            WholeTextCell<WizardItem> cell = new WholeTextCell<>(false);
            cell.setTextOverrun(OverrunStyle.CENTER_ELLIPSIS);
            return cell;
        });
        resultTable.getColumns().setAll(List.of(
                operation,
                column("What happened", 640, item -> item.outcomeProperty().get() == null ? ""
                        : item.outcomeProperty().get().text())));
        for (TableView<WizardItem> table : List.of(evidenceTable, reconcileTable, checkTable, resultTable)) {
            table.setItems(model.items());
            table.setFixedCellSize(26);
            table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
            table.getColumns().forEach(c -> c.setSortable(false));
        }
        resultTable.setRowFactory(table -> new ResultRow());
        resultTable.setTooltip(new Tooltip("Double-click an entry to show where it is now in the console"));
        manualOutcome.setItems(FXCollections.observableArrayList(ReconciliationOutcome.APPLIED, ReconciliationOutcome.NOT_APPLIED));
        manualOutcome.setValue(ReconciliationOutcome.NOT_APPLIED);
        rateSpinner.setValueFactory(new SpinnerValueFactory.IntegerSpinnerValueFactory(1, 100_000, 5));
        TypedSpinner.editable(rateSpinner);
        decisionScope.setText(batch ? "Decide about " + model.items().size()
                + " entries. Each decision goes only to the entries that can get it; each is checked again as it is recorded."
                : "Decide about " + model.items().get(0).subject() + ".");
        for (ItemResult.Kind kind : ItemResult.Kind.values()) {
            Label count = new Label();
            count.setId("result-" + kind.name().toLowerCase(Locale.ROOT));
            count.getStyleClass().addAll("result-count", "result-" + kind.name().toLowerCase(Locale.ROOT));
            count.textProperty().bind(model.resultCountProperty(kind).asString()
                    .concat(" " + kind.name().toLowerCase(Locale.ROOT)));
            model.resultCountProperty(kind).addListener((obs, was, now) ->
                    count.pseudoClassStateChanged(EMPTY, now.intValue() == 0));
            count.pseudoClassStateChanged(EMPTY, true);
            resultCounts.getChildren().add(count);
        }
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
            readOnly.visibleProperty().bind(model.readOnlyReasonProperty().isNotEmpty());
            readOnly.managedProperty().bind(readOnly.visibleProperty());
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
        approvalNote.visibleProperty().bind(model.waitsForApprovalProperty().isNotEmpty());
        approvalNote.managedProperty().bind(approvalNote.visibleProperty());
        progressBar.progressProperty().bind(model.progressProperty());
        progressText.textProperty().bind(model.progressTextProperty());
        stoppedNote.textProperty().bind(model.stoppedNoteProperty());
        stoppedNote.visibleProperty().bind(model.stoppedNoteProperty().isNotEmpty());
        stoppedNote.managedProperty().bind(stoppedNote.visibleProperty());
        verifyButton.disableProperty().bind(model.issuedProperty().not().or(model.busyProperty()));
        // Only a redrive or a correction waits for the worker: a request, a resolve or a discard has nothing to check.
        verifyButton.visibleProperty().bind(model.workerToCheckProperty());
        verifyButton.managedProperty().bind(verifyButton.visibleProperty());
        for (WizardItem item : model.items()) {
            for (ObservableValue<?> value : List.of(item.detailsProperty(), item.sideEffectProperty(),
                    item.reconciliationProperty(), item.checkSummaryProperty(), item.outcomeProperty())) {
                value.addListener((obs, was, now) -> refreshTables());
            }
        }
    }

    /** The tool's result goes with an APPLIED finding only; a result that is no JSON object says so and is not recorded. */
    private void bindManualResult() {
        BooleanBinding applied = manualOutcome.valueProperty().isEqualTo(ReconciliationOutcome.APPLIED);
        manualResultRow.visibleProperty().bind(applied);
        manualResultRow.managedProperty().bind(applied);
        manualResult.setPromptText("{\"charge_id\":\"ch_1\"} (optional: resolving as succeeded takes it)");
        manualResult.textProperty().bindBidirectional(model.manualResult().textProperty());
        manualResultProblem.textProperty().bind(model.manualResult().problemProperty());
        BooleanBinding problem = applied.and(model.manualResult().problemProperty().isNotEmpty());
        manualResultProblem.visibleProperty().bind(problem);
        manualResultProblem.managedProperty().bind(problem);
        recordButton.disableProperty().bind(problem.or(model.busyProperty()));
    }

    /** The payload editor shows only with the correction chosen: the original on the left, the correction on the right. */
    private void bindEditor() {
        PayloadEditor editor = model.editor();
        BooleanBinding correcting = model.decisionProperty().isEqualTo(DecisionKind.CORRECT);
        correctionEditor.visibleProperty().bind(correcting);
        correctionEditor.managedProperty().bind(correcting);
        originalPayload.textProperty().bind(editor.originalTextProperty());
        correctedPayload.textProperty().bindBidirectional(editor.textProperty());
        payloadProblem.textProperty().bind(editor.problemProperty());
        payloadProblem.visibleProperty().bind(editor.problemProperty().isNotEmpty());
        payloadProblem.managedProperty().bind(payloadProblem.visibleProperty());
        payloadChanges.textProperty().bind(editor.changesProperty());
        payloadChanges.visibleProperty().bind(editor.changesProperty().isNotEmpty());
        payloadChanges.managedProperty().bind(payloadChanges.visibleProperty());
    }

    private void bindChoice(RadioButton choice, Label note, DecisionKind kind) {
        choice.disableProperty().bind(model.allowedProperty(kind).not());
        note.textProperty().bind(model.choiceNoteProperty(kind));
        note.visibleProperty().bind(model.choiceNoteProperty(kind).isNotEmpty());
        note.managedProperty().bind(note.visibleProperty());
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
        DlqEntryRecord entry = entry(item).orElse(null);
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
            button(wizardPane(), ButtonBar.ButtonData.NEXT_FORWARD).ifPresent(Button::fire);
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

    private static java.util.Optional<DlqEntryRecord> entry(WizardItem item) {
        return java.util.Optional.ofNullable(item.entryProperty().get());
    }

    private void buildWizard(Window owner, String stylesheet) {
        wizard = new Wizard(owner, "Reconcile and decide");
        DialogSize size = DialogSize.over(owner, SMALLEST);
        WizardPane evidence = page("1 · Evidence", evidencePage, StepHelp.EVIDENCE, model::canLeaveEvidence, model::loadEvidence);
        WizardPane reconcile = page("2 · Reconcile the side effect", reconcilePage, StepHelp.RECONCILE,
                model::canLeaveReconcile, () -> { });
        WizardPane preconditions = page("3 · Preconditions", preconditionsPage, StepHelp.PRECONDITIONS,
                model::canLeavePreconditions, model::recheck);
        WizardPane decision = page("4 · Decision", decisionPage, StepHelp.DECISION, model::canIssue, () -> { });
        WizardPane result = page("5 · Result", resultPage, StepHelp.RESULT,
                () -> model.issuedProperty().and(model.decidingProperty().not()), () -> {
                    if (!model.issuedProperty().get()) {
                        model.issue();
                    }
                    followWorker.play();
                });
        String own = ReconciliationWizardView.class.getResource("/console/wizard/wizard.css").toExternalForm();
        for (WizardPane pane : List.of(evidence, reconcile, preconditions, decision, result)) {
            size.applyTo(pane);
            if (stylesheet != null) {
                pane.getStylesheets().add(stylesheet);
            }
            pane.getStylesheets().add(own);
        }
        wizard.setFlow(new Wizard.LinearFlow(evidence, reconcile, preconditions, decision, result));
        // The first page now sits in the wizard's own window, which ControlsFX does not hand out otherwise.
        window = (Stage) evidence.getScene().getWindow();
        window.setResizable(true);
        window.setMinWidth(Math.min(SMALLEST.width(), size.width()));
        window.setMinHeight(Math.min(SMALLEST.height(), size.height()));
        window.addEventHandler(WindowEvent.WINDOW_HIDDEN, event -> followWorker.stop());
        followWorker.setCycleCount(Timeline.INDEFINITE);
    }

    private WizardPane page(String header, VBox content, String help, Supplier<BooleanBinding> canContinue,
                            Runnable onEnter) {
        WizardPane pane = new WizardPane() {
            @Override
            public void onEnteringPage(Wizard owner) {
                super.onEnteringPage(owner);
                owner.invalidProperty().unbind();
                owner.invalidProperty().bind(canContinue.get().not());
                keepWindowSize(this);
                if (content == decisionPage) {
                    // The wizard puts a new Next button in place after this call: name the act on that one.
                    Platform.runLater(() -> nameTheAct(this));
                } else if (content == resultPage) {
                    holdAfterIssuing(this);
                }
                onEnter.run();
            }
        };
        pane.setHeader(StepHelp.header(header, StepHelp.attach(content, help)));
        pane.setContent(content);
        return pane;
    }

    /** On the decision step the button that issues says what it does: "Redrive 1 operation", "Discard 12 entries". */
    private void nameTheAct(WizardPane pane) {
        button(pane, ButtonBar.ButtonData.NEXT_FORWARD).ifPresent(next -> {
            next.textProperty().bind(Bindings.when(model.waitsForApprovalProperty().isEmpty())
                    .then(model.actionTextProperty()).otherwise(Bindings.concat("Ask for approval: ",
                            model.actionTextProperty())));
            next.setId("issueDecision");
            // The button bar gives all its buttons the width of the widest "Next"; this one grows with its words.
            ButtonBar.setButtonUniformSize(next, false);
            next.setPrefWidth(Button.USE_COMPUTED_SIZE);
            next.setMinWidth(Button.USE_PREF_SIZE);
            next.getParent().requestLayout();
        });
    }

    /**
     * Once issued nothing can go back: no Previous; Cancel becomes Stop while a paced batch is being issued and goes
     * away after; Finish (as "Close") waits until every decision is recorded.
     */
    private void holdAfterIssuing(WizardPane pane) {
        pane.getButtonTypes().removeIf(type -> type.getButtonData() == ButtonBar.ButtonData.BACK_PREVIOUS);
        button(pane, ButtonBar.ButtonData.CANCEL_CLOSE).ifPresent(cancel -> {
            cancel.textProperty().bind(Bindings.when(model.pacingProperty()).then("Stop").otherwise("Cancel"));
            cancel.visibleProperty().bind(model.pacingProperty());
            cancel.managedProperty().bind(cancel.visibleProperty());
            cancel.setId("stopBatch");
            // Caught on its way down, at the page: the wizard's own filter on the button would leave the page first
            // and take the Close button with it.
            pane.addEventFilter(ActionEvent.ACTION, event -> {
                if (event.getTarget() == cancel) {
                    event.consume();
                    if (model.pacingProperty().get()) {
                        model.stop();
                    }
                }
            });
        });
        // The wizard disables Finish itself while the page's "can continue" binding is false: until all is recorded.
        button(pane, ButtonBar.ButtonData.FINISH).ifPresent(finish -> finish.setText("Close"));
    }

    private WizardPane wizardPane() {
        return (WizardPane) window.getScene().getRoot();
    }

    private static java.util.Optional<Button> button(WizardPane pane, ButtonBar.ButtonData data) {
        return pane.getButtonTypes().stream().filter(type -> type.getButtonData() == data).findFirst()
                .map(pane::lookupButton).map(Button.class::cast);
    }

    /** Each page is a pane of its own that the window is fitted to: it gets the size the operator gave the window. */
    private void keepWindowSize(WizardPane entering) {
        if (window != null && window.isShowing()) {
            entering.setPrefSize(window.getScene().getWidth(), window.getScene().getHeight());
        }
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
        wizard.showAndWait();
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
        model.link(model.items().get(0));
        window.hide();
    }

    @FXML
    private void copyIds() {
        Clipboards.copy(model.items().stream().map(WizardItem::operationId).filter(Objects::nonNull)
                .collect(Collectors.joining("\n")));
    }

    /** A result row coloured by how the item ended; a double-click shows where the item is now in the console. */
    private final class ResultRow extends TableRow<WizardItem> {
        ResultRow() {
            setOnMouseClicked(event -> {
                if (event.getClickCount() == 2 && !isEmpty()) {
                    model.link(getItem());
                    window.hide();
                }
            });
        }

        @Override
        protected void updateItem(WizardItem item, boolean empty) {
            super.updateItem(item, empty);
            getStyleClass().removeIf(style -> style.startsWith("result-"));
            ItemResult outcome = empty || item == null ? null : item.outcomeProperty().get();
            if (outcome != null) {
                getStyleClass().add("result-" + outcome.kind().name().toLowerCase(Locale.ROOT));
            }
        }
    }

    private static TableColumn<WizardItem, String> column(String title, double width, Function<WizardItem, String> value) {
        return textColumn(title, width, value);
    }

    private static TableColumn<CheckTally, String> tallyColumn(String title, double width, Function<CheckTally, String> value) {
        return textColumn(title, width, value);
    }

    private static <S> TableColumn<S, String> textColumn(String title, double width, Function<S, String> value) {
        TableColumn<S, String> column = new TableColumn<>(title);
        column.setPrefWidth(width);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        column.setCellFactory(c -> new WholeTextCell<>(false));
        return column;
    }

    private static TableColumn<WizardItem, SideEffectState> badgeColumn() {
        TableColumn<WizardItem, SideEffectState> column = new TableColumn<>("Side effect");
        column.setPrefWidth(120);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue().sideEffectProperty().get()));
        column.setCellFactory(c -> SideEffectBadge.tableCell());
        return column;
    }
}
