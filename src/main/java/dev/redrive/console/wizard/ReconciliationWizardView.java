package dev.redrive.console.wizard;

import dev.redrive.console.ui.Fxml;
import dev.redrive.console.detail.OperationDetailViewModel;
import dev.redrive.console.timeline.AttemptTimeline;
import dev.redrive.console.ui.Clipboards;
import dev.redrive.console.ui.DialogSize;
import dev.redrive.console.ui.SideEffectBadge;
import dev.redrive.console.ui.WholeTextCell;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.detail.OperationDetails;
import dev.redrive.triage.detail.ReconciliationOutcome;
import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Toggle;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
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
    @FXML private Label reconcileMessage;
    @FXML private Label reconcileReadOnly;
    @FXML private Label decisionReadOnly;
    @FXML private VBox preconditionsPage;
    @FXML private Label checkSummary;
    @FXML private ScrollPane checkScroll;
    @FXML private VBox checkList;
    @FXML private TableView<WizardItem> checkTable;
    @FXML private Label blockedReason;
    @FXML private VBox decisionPage;
    @FXML private ToggleGroup decisionGroup;
    @FXML private Label decisionScope;
    @FXML private RadioButton redriveChoice;
    @FXML private RadioButton resolveChoice;
    @FXML private RadioButton discardChoice;
    @FXML private TextArea reasonArea;
    @FXML private TextField operatorField;
    @FXML private Label rateLabel;
    @FXML private Spinner<Integer> rateSpinner;
    @FXML private VBox resultPage;
    @FXML private ProgressBar progressBar;
    @FXML private Label progressText;
    @FXML private Label resultSummary;
    @FXML private TableView<WizardItem> resultTable;
    @FXML private Button verifyButton;
    @FXML private Button stopButton;
    @FXML private Label verification;

    /** What the pages need at the least: the tables' columns and the decision page's choices without truncation. */
    private static final DialogSize SMALLEST = new DialogSize(860, 560);

    private ReconciliationWizardViewModel model;
    private Wizard wizard;
    private Stage window;

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
        evidenceFacts.setVisible(!batch);
        evidenceFacts.setManaged(!batch);
        evidenceTimeline.setVisible(!batch);
        evidenceTimeline.setManaged(!batch);
        evidenceTable.setVisible(batch);
        evidenceTable.setManaged(batch);
        evidenceTitle.setText(batch ? model.items().size() + " DLQ entries" : "Evidence");
        evidenceTable.getColumns().setAll(List.of(
                column("Operation", 260, item -> item.operationId()),
                column("Class", 150, item -> entry(item).map(e -> e.errorClass().name()).orElse("")),
                badgeColumn(),
                column("Last error", 340, item -> entry(item).map(DlqEntryRecord::errorMessage).orElse(""))));
        reconcileTable.getColumns().setAll(List.of(
                column("Operation", 260, WizardItem::operationId),
                badgeColumn(),
                column("Reconciliation", 460, item -> item.reconciliationProperty().get())));
        checkTable.getColumns().setAll(List.of(
                column("Operation", 260, WizardItem::operationId),
                column("Preconditions", 560, item -> item.checkSummaryProperty().get())));
        resultTable.getColumns().setAll(List.of(
                column("Operation", 260, WizardItem::operationId),
                column("Command", 290, WizardItem::commandId),
                column("Outcome", 560, item -> item.outcomeProperty().get())));
        for (TableView<WizardItem> table : List.of(evidenceTable, reconcileTable, checkTable, resultTable)) {
            table.setItems(model.items());
            table.setFixedCellSize(26);
            table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
            table.getColumns().forEach(c -> c.setSortable(false));
        }
        resultTable.setRowFactory(table -> {
            javafx.scene.control.TableRow<WizardItem> row = new javafx.scene.control.TableRow<>();
            row.setOnMouseClicked(event -> {
                if (event.getClickCount() == 2 && !row.isEmpty()) {
                    model.link(row.getItem());
                    resultTable.getScene().getWindow().hide();
                }
            });
            return row;
        });
        resultTable.setTooltip(new javafx.scene.control.Tooltip("Double-click an entry to show it in the console"));
        checkScroll.setVisible(!batch);
        checkScroll.setManaged(!batch);
        checkTable.setVisible(batch);
        checkTable.setManaged(batch);
        manualOutcome.setItems(FXCollections.observableArrayList(ReconciliationOutcome.APPLIED, ReconciliationOutcome.NOT_APPLIED));
        manualOutcome.setValue(ReconciliationOutcome.NOT_APPLIED);
        rateSpinner.setValueFactory(new javafx.scene.control.SpinnerValueFactory.IntegerSpinnerValueFactory(1, 100, 5));
        rateLabel.setVisible(batch);
        rateSpinner.setVisible(batch);
        decisionScope.setText(batch ? "Decide about " + model.items().size()
                + " entries. A redrive only goes to the entries whose checks passed; each is checked again as it is issued."
                : "Decide about " + model.items().get(0).operationId() + ". A redrive is checked again as it is issued.");
    }

    private void bindFieldsToModel() {
        if (!model.isBatch()) {
            model.items().get(0).detailsProperty().addListener((obs, was, details) -> showEvidence(details));
            model.items().get(0).sideEffectProperty().addListener((obs, was, state) -> evidenceBadge.show(state));
            model.items().get(0).reportProperty().addListener((obs, was, report) -> showChecks(report));
        }
        askToolButton.disableProperty().bind(model.busyProperty().or(model.unsettledProperty().isEqualTo(0)));
        reconcileMessage.textProperty().bind(model.reconcileTextProperty());
        for (Label readOnly : List.of(reconcileReadOnly, decisionReadOnly)) {
            readOnly.textProperty().bind(model.readOnlyReasonProperty());
            readOnly.visibleProperty().bind(model.readOnlyReasonProperty().isNotEmpty());
            readOnly.managedProperty().bind(readOnly.visibleProperty());
        }
        checkSummary.textProperty().bind(model.checkSummaryProperty());
        blockedReason.textProperty().bind(model.blockedReasonProperty());
        decisionGroup.selectedToggleProperty().addListener((obs, was, toggle) -> model.decisionProperty().set(kind(toggle)));
        decisionGroup.selectToggle(redriveChoice);
        reasonArea.textProperty().bindBidirectional(model.reasonProperty());
        operatorField.textProperty().bindBidirectional(model.operatorProperty());
        rateSpinner.valueProperty().addListener((obs, was, rate) -> model.redrivesPerSecondProperty().set(rate));
        progressBar.progressProperty().bind(model.progressProperty());
        progressText.textProperty().bind(model.progressTextProperty());
        resultSummary.textProperty().bind(model.resultSummaryProperty());
        verification.textProperty().bind(model.verificationProperty());
        verifyButton.disableProperty().bind(model.issuedProperty().not().or(model.busyProperty()));
        stopButton.visibleProperty().bind(model.busyProperty());
        stopButton.managedProperty().bind(stopButton.visibleProperty());
        for (WizardItem item : model.items()) {
            for (ObservableValue<?> value : List.of(item.detailsProperty(), item.sideEffectProperty(),
                    item.reconciliationProperty(), item.checkSummaryProperty(), item.outcomeProperty())) {
                value.addListener((obs, was, now) -> refreshTables());
            }
        }
    }

    private void refreshTables() {
        for (TableView<WizardItem> table : List.of(evidenceTable, reconcileTable, checkTable, resultTable)) {
            table.refresh();
        }
    }

    private DecisionKind kind(Toggle toggle) {
        return toggle == resolveChoice ? DecisionKind.RESOLVE : toggle == discardChoice ? DecisionKind.DISCARD
                : DecisionKind.REDRIVE;
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
        evidenceSchema.setText(details.operation().tool() + " v" + then + " → "
                + (now == null ? "not registered" : "v" + now + (now.equals(then) ? " (unchanged)" : " (CHANGED)")));
        evidenceRuntime.setText(Objects.toString(details.operation().runtimeVersion(), ""));
        evidenceRun.setText(details.operation().runId() + (details.run() == null ? "" : " · " + details.run().status()));
        evidenceTimeline.setData(OperationDetailViewModel.timelineOf(details, entry));
    }

    private void showChecks(PreconditionReport report) {
        checkList.getChildren().clear();
        if (report == null) {
            return;
        }
        for (PreconditionResult result : report.results()) {
            Label title = new Label((result.passed() ? "✔ " : "✘ ") + result.id().title());
            title.getStyleClass().addAll("check-title", result.passed() ? "check-passed" : "check-failed");
            title.setId("check-" + result.id().key());
            Label why = new Label(result.explanation());
            why.setWrapText(true);
            Label facts = new Label(result.facts().entrySet().stream()
                    .map(fact -> fact.getKey() + "=" + fact.getValue()).collect(Collectors.joining("  ")));
            facts.getStyleClass().add("check-facts");
            facts.setWrapText(true);
            checkList.getChildren().add(new VBox(2, title, why, facts));
        }
    }

    private java.util.Optional<DlqEntryRecord> entry(WizardItem item) {
        OperationDetails details = item.detailsProperty().get();
        if (details == null) {
            return java.util.Optional.empty();
        }
        return details.dlqEntries().stream().filter(e -> item.dlqEntryId() == null || e.id() == item.dlqEntryId())
                .findFirst();
    }

    private void buildWizard(Window owner, String stylesheet) {
        wizard = new Wizard(owner, "Reconcile and decide");
        DialogSize size = DialogSize.over(owner, SMALLEST);
        WizardPane evidence = page("1 · Evidence", evidencePage, model::canLeaveEvidence, model::loadEvidence);
        WizardPane reconcile = page("2 · Reconcile the side effect", reconcilePage, model::canLeaveReconcile, () -> { });
        WizardPane preconditions = page("3 · Preconditions", preconditionsPage, model::canLeavePreconditions, model::recheck);
        WizardPane decision = page("4 · Decision", decisionPage, model::canIssue, () -> { });
        WizardPane result = page("5 · Result", resultPage, () -> model.issuedProperty().and(model.busyProperty().not()),
                () -> {
                    if (!model.issuedProperty().get()) {
                        model.issue();
                    }
                });
        for (WizardPane pane : List.of(evidence, reconcile, preconditions, decision, result)) {
            size.applyTo(pane);
            if (stylesheet != null) {
                pane.getStylesheets().add(stylesheet);
            }
        }
        wizard.setFlow(new Wizard.LinearFlow(evidence, reconcile, preconditions, decision, result));
        // The first page now sits in the wizard's own window, which ControlsFX does not hand out otherwise.
        window = (Stage) evidence.getScene().getWindow();
        window.setResizable(true);
        window.setMinWidth(Math.min(SMALLEST.width(), size.width()));
        window.setMinHeight(Math.min(SMALLEST.height(), size.height()));
    }

    private WizardPane page(String header, VBox content, Supplier<BooleanBinding> canContinue, Runnable onEnter) {
        WizardPane pane = new WizardPane() {
            @Override
            public void onEnteringPage(Wizard owner) {
                super.onEnteringPage(owner);
                owner.invalidProperty().unbind();
                owner.invalidProperty().bind(canContinue.get().not());
                keepWindowSize(this);
                onEnter.run();
            }
        };
        pane.setHeaderText(header);
        pane.setContent(content);
        return pane;
    }

    /** Each page is a pane of its own that the window is fitted to: it gets the size the operator gave the window. */
    private void keepWindowSize(WizardPane entering) {
        if (window != null && window.isShowing()) {
            entering.setPrefSize(window.getScene().getWidth(), window.getScene().getHeight());
        }
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
    private void stop() {
        model.stop();
    }

    @FXML
    private void verify() {
        model.verify();
    }

    @FXML
    private void copyIds() {
        Clipboards.copy(model.items().stream().map(WizardItem::operationId).collect(Collectors.joining("\n")));
    }

    private static TableColumn<WizardItem, String> column(String title, double width, Function<WizardItem, String> value) {
        TableColumn<WizardItem, String> column = new TableColumn<>(title);
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
