package dev.redrive.console.detail;

import dev.redrive.console.ui.FxmlView;
import dev.redrive.console.ui.Shown;
import dev.redrive.console.timeline.AttemptTimeline;
import dev.redrive.console.ui.Clipboards;
import dev.redrive.console.ui.DesktopServices;
import dev.redrive.console.ui.SideEffectBadge;
import dev.redrive.triage.detail.AuditEntry;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** The operation detail pane. Actions (wizard, resolve, discard, export) are handed to whoever owns them. */
public final class OperationDetailView extends FxmlView<OperationDetailViewModel> {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("MM-dd HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
    static final String NO_ID = "none sent";
    private static final PseudoClass ABSENT = PseudoClass.getPseudoClass("absent");

    @FXML private Label messageLabel;
    @FXML private ScrollPane content;
    @FXML private Label operationLabel;
    @FXML private SideEffectBadge sideEffectBadge;
    @FXML private Button wizardButton;
    @FXML private MenuItem resolveItem;
    @FXML private MenuItem discardItem;
    @FXML private Label statusLabel;
    @FXML private Label decisionLabel;
    @FXML private VBox lineageBox;
    @FXML private Hyperlink correctsLink;
    @FXML private Hyperlink correctedByLink;
    @FXML private Label lastErrorLabel;
    @FXML private Label noOperationLabel;
    @FXML private Label timelineTitle;
    @FXML private AttemptTimeline timeline;
    @FXML private VBox claimedBox;
    @FXML private Label claimedOperationLabel;
    @FXML private Label claimedRunLabel;
    @FXML private Label claimedNodeLabel;
    @FXML private Label toolLabel;
    @FXML private VBox identityBox;
    @FXML private Label receivedLabel;
    @FXML private VBox versionsBox;
    @FXML private Label attemptsTitle;
    @FXML private Label payloadTitle;
    @FXML private Label rawMessageTitle;
    @FXML private TextArea rawMessageArea;
    @FXML private Label runLabel;
    @FXML private Label nodeLabel;
    @FXML private Label logicalAttemptLabel;
    @FXML private Label idempotencyKeyLabel;
    @FXML private Label streamLabel;
    @FXML private Label entryIdLabel;
    @FXML private Label deliveryCountLabel;
    @FXML private Label consumerLabel;
    @FXML private Label traceLabel;
    @FXML private Button traceCopy;
    @FXML private Hyperlink tracerLink;
    @FXML private Label correlationLabel;
    @FXML private Label traceparentLabel;
    @FXML private Button traceparentCopy;
    @FXML private Button correlationCopy;
    @FXML private Label runtimeLabel;
    @FXML private Label dispatchedSchemaLabel;
    @FXML private Label currentSchemaLabel;
    @FXML private Label schemaNoteLabel;
    @FXML private VBox attemptList;
    @FXML private TextArea payloadArea;
    @FXML private ListView<AuditEntry> auditList;

    private DesktopServices desktop;
    private Runnable wizardOpener = () -> { };
    private Runnable resolver = () -> { };
    private Runnable discarder = () -> { };
    private Runnable exporter = () -> { };

    public static OperationDetailView load(OperationDetailViewModel model, DesktopServices desktop) {
        return FxmlView.load("/console/detail/OperationDetail.fxml", model, view -> view.desktop = desktop);
    }

    private void initializeParts() {
        auditList.setCellFactory(list -> new ListCell<>() {
            @Override
            protected void updateItem(AuditEntry entry, boolean empty) {
                super.updateItem(entry, empty);
                setText(empty || entry == null ? null : TIME.format(entry.at()) + "  " + entry.who() + "  "
                        + entry.action() + (entry.reason() == null ? "" : " · " + entry.reason())
                        + (entry.commandId() == null ? "" : " · command " + entry.commandId()));
            }
        });
        auditList.setPlaceholder(new Label("No audit entries yet."));
    }

    @Override
    protected void bind() {
        initializeParts();
        content.visibleProperty().bind(model.loadedProperty());
        messageLabel.textProperty().bind(model.messageProperty());
        messageLabel.visibleProperty().bind(model.loadedProperty().not().or(model.messageProperty().isNotEmpty()));
        operationLabel.textProperty().bind(model.titleProperty());
        // Another entry starts at the top: its id, error and side-effect badge, not where the last one was scrolled to.
        model.titleProperty().addListener((obs, was, now) -> content.setVvalue(content.getVmin()));
        model.sideEffectProperty().addListener((obs, was, state) -> sideEffectBadge.show(state));
        statusLabel.textProperty().bind(model.statusProperty());
        decisionLabel.textProperty().bind(model.decisionProperty());
        bindLineage();
        lastErrorLabel.textProperty().bind(model.lastErrorProperty());
        // A succeeded correction has no entry and no error: its tinted box would stand there empty.
        Shown.when(model.lastErrorProperty().isNotEmpty(), lastErrorLabel);
        timeline.dataProperty().bind(model.timelineProperty());
        runLabel.textProperty().bind(model.runIdProperty());
        nodeLabel.textProperty().bind(model.nodeIdProperty());
        logicalAttemptLabel.textProperty().bind(model.logicalAttemptProperty());
        idempotencyKeyLabel.textProperty().bind(model.idempotencyKeyProperty());
        streamLabel.textProperty().bind(model.streamProperty());
        entryIdLabel.textProperty().bind(model.entryIdProperty());
        deliveryCountLabel.textProperty().bind(model.deliveryCountProperty());
        consumerLabel.textProperty().bind(model.consumerProperty());
        receivedLabel.textProperty().bind(model.receivedProperty());
        // A message sent without a trace or correlation id says so, with nothing to copy. The tracer link stays while
        // there is somewhere to go: a worker with an OpenTelemetry SDK traced the attempts even when no id was sent.
        showId(model.traceIdProperty(), traceLabel, traceCopy);
        showId(model.correlationIdProperty(), correlationLabel, correlationCopy);
        showId(model.traceparentProperty(), traceparentLabel, traceparentCopy);
        Shown.when(model.tracerUrlProperty().isNotEmpty(), tracerLink);
        runtimeLabel.textProperty().bind(model.runtimeVersionProperty());
        dispatchedSchemaLabel.textProperty().bind(model.dispatchedSchemaProperty());
        currentSchemaLabel.textProperty().bind(model.currentSchemaProperty());
        schemaNoteLabel.textProperty().bind(model.schemaNoteProperty());
        Shown.when(model.schemaChangedProperty(), schemaNoteLabel);
        payloadArea.textProperty().bind(model.payloadProperty());
        rawMessageArea.textProperty().bind(model.rawMessageProperty());
        claimedOperationLabel.textProperty().bind(model.claimedOperationProperty());
        claimedRunLabel.textProperty().bind(model.runIdProperty());
        claimedNodeLabel.textProperty().bind(model.nodeIdProperty());
        toolLabel.textProperty().bind(model.toolProperty());
        noOperationLabel.setText(OperationDetailViewModel.NO_OPERATION);
        // An entry without an operation has no attempts, payload or versions to show, and shows its raw message instead.
        Shown.when(model.entryAloneProperty(), noOperationLabel, claimedBox, rawMessageTitle, rawMessageArea);
        Shown.when(model.entryAloneProperty().not(), timelineTitle, timeline, identityBox, versionsBox, attemptsTitle,
                attemptList, payloadTitle, payloadArea);
        AttemptList.show(attemptList, model.attempts(), TIME, model::tracerUrl, desktop::open);
        auditList.setItems(model.audit());
        // Any open entry opens the wizard, as a double-click in the list does; for an entry without an operation it
        // offers discard and resolve and says why a redrive cannot be had. An operation waiting for its retry has
        // nothing to redrive: only discard and resolve, which cancel the retry.
        wizardButton.disableProperty().bind(model.decidableProperty().not().or(model.waitsForRetryProperty()));
        resolveItem.disableProperty().bind(model.decidableProperty().not());
        discardItem.disableProperty().bind(model.decidableProperty().not());
    }

    /** Both ends of a correction, one click from each other. */
    private void bindLineage() {
        correctsLink.textProperty().bind(Bindings.concat("Corrects ", model.correctsProperty(),
                " (this is its correction, a later logical attempt)"));
        correctedByLink.textProperty().bind(Bindings.concat("Superseded: corrected by ", model.correctedByProperty(),
                " (this one never runs again)"));
        Shown.when(model.correctsProperty().isNotEmpty(), correctsLink);
        Shown.when(model.correctedByProperty().isNotEmpty(), correctedByLink);
        Shown.when(model.correctsProperty().isNotEmpty().or(model.correctedByProperty().isNotEmpty()), lineageBox);
    }

    private static void showId(ReadOnlyStringProperty id, Label label, Button copy) {
        label.textProperty().bind(Bindings.when(id.isEmpty()).then(NO_ID).otherwise(id));
        label.pseudoClassStateChanged(ABSENT, id.get().isEmpty());
        id.addListener((obs, was, now) -> label.pseudoClassStateChanged(ABSENT, now.isEmpty()));
        Shown.when(id.isNotEmpty(), copy);
    }

    public void onOpenWizard(Runnable opener) { this.wizardOpener = opener; }
    public void onResolve(Runnable action) { this.resolver = action; }
    public void onDiscard(Runnable action) { this.discarder = action; }
    public void onExport(Runnable action) { this.exporter = action; }

    @FXML private void openWizard() { wizardOpener.run(); }
    @FXML private void resolve() { resolver.run(); }
    @FXML private void discard() { discarder.run(); }
    @FXML private void exportReport() { exporter.run(); }
    @FXML private void followCorrects() { model.showOperation(model.correctsProperty().get()); }
    @FXML private void followCorrectedBy() { model.showOperation(model.correctedByProperty().get()); }
    @FXML private void copyShownId() { Clipboards.copy(model.shownIdProperty().get()); }
    @FXML private void copyTraceId() { Clipboards.copy(model.traceIdProperty().get()); }
    @FXML private void copyTraceparent() { Clipboards.copy(model.traceparentProperty().get()); }
    @FXML private void copyCorrelationId() { Clipboards.copy(model.correlationIdProperty().get()); }

    @FXML
    private void openTracer() {
        String url = model.tracerUrlProperty().get();
        if (!url.isEmpty()) {
            desktop.open(url);
        }
    }
}
