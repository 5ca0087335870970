package dev.redrive.console.batch;

import dev.redrive.console.ui.ActButton;
import dev.redrive.console.ui.CountText;
import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.console.ui.DialogSize;
import dev.redrive.console.ui.FxmlView;
import dev.redrive.console.ui.ListDialog;
import dev.redrive.console.ui.TabMovesFocus;
import dev.redrive.console.ui.TextColumn;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.ui.TypedSpinner;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.Window;
import javafx.util.Duration;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;

/**
 * The batches badge of the main window's toolbar and the list it opens: every recent durable batch with a progress
 * bar, its pace and the time it still takes, read again each second while the list is open.
 */
public final class BatchesView extends FxmlView<BatchesViewModel> {
    private static final PseudoClass RUNNING = PseudoClass.getPseudoClass("running");
    private static final Duration POLL = Duration.seconds(1);
    private static final double GROUP_DIALOG_WIDTH = 560;

    @FXML private TableView<BatchRow> batchesTable;
    @FXML private Button resumeButton;
    @FXML private Button stopButton;
    @FXML private Button reportButton;
    @FXML private Label messageLabel;
    @FXML private Label outcomeSummary;
    @FXML private TableView<BatchOutcomes.Item> outcomesTable;

    private BatchOutcomesViewModel outcomes;
    private BiConsumer<String, Long> entryShower = (operation, entry) -> { };
    private LongConsumer reportExporter = id -> { };
    private final Button badge = new Button();
    private final Timeline polling = new Timeline(new KeyFrame(POLL, event -> {
        model.refresh();
        outcomes.refresh();
    }));

    public static BatchesView load(BatchesViewModel model, BatchOutcomesViewModel outcomes) {
        return FxmlView.load("/console/batch/Batches.fxml", model, view -> view.outcomes = outcomes);
    }

    private void initializeParts() {
        badge.setId("batchesBadge");
        badge.getStyleClass().addAll("flat", "batches-badge");
        badge.setOnAction(event -> open(badge.getScene().getWindow()));
        polling.setCycleCount(Timeline.INDEFINITE);
        TableColumn<BatchRow, Double> progress = new TableColumn<>("Progress");
        progress.setPrefWidth(110);
        progress.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue().batch().fraction()));
        progress.setCellFactory(column -> new ProgressCell());
        batchesTable.getColumns().setAll(List.of(
                TextColumn.of("Id", 40, row -> String.valueOf(row.id())),
                TextColumn.of("Decides", 240, BatchRow::what),
                TextColumn.of("By", 170, BatchRow::who),
                TextColumn.of("State", 180, BatchRow::state),
                progress,
                TextColumn.of("Done", 140, BatchRow::progress),
                TextColumn.of("Pace", 160, BatchRow::pace)));
        // The columns share the list's width, the pace takes what is left: nothing runs past the list.
        batchesTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        batchesTable.setPlaceholder(new Label("No batch yet. Redrive a whole group (Groups ▸ Redrive whole "
                + "group as a batch…) or run redrive --group FP; it shows here."));
        BatchOutcomesTable.setUp(outcomesTable, item -> entryShower.accept(item.operationId(), item.newDlqEntryId()));
    }

    @Override
    protected void bind() {
        initializeParts();
        badge.textProperty().bind(model.badgeProperty());
        model.runningProperty().addListener((obs, was, now) ->
                badge.pseudoClassStateChanged(RUNNING, now.longValue() > 0));
        batchesTable.setItems(model.rows());
        batchesTable.getSelectionModel().selectedItemProperty().addListener((obs, was, now) -> {
            if (now != null) {
                model.selectedProperty().set(now);
            }
        });
        model.selectedProperty().addListener((obs, was, now) -> {
            if (now != null && now != batchesTable.getSelectionModel().getSelectedItem()) {
                batchesTable.getSelectionModel().select(now);
            }
        });
        resumeButton.disableProperty().bind(Bindings.createBooleanBinding(() -> model.selectedProperty().get() == null
                || !model.selectedProperty().get().resumable(), model.selectedProperty()));
        stopButton.disableProperty().bind(Bindings.createBooleanBinding(() -> model.selectedProperty().get() == null
                || !model.selectedProperty().get().stoppable(), model.selectedProperty()));
        reportButton.disableProperty().bind(model.selectedProperty().isNull());
        messageLabel.textProperty().bind(model.messageProperty());
        outcomesTable.setItems(outcomes.items());
        outcomeSummary.textProperty().bind(outcomes.summaryProperty());
        model.selectedProperty().addListener((obs, was, now) -> outcomes.show(now));
        // With no batch chosen the list is empty for that reason, not because nothing was taken.
        Label noItems = new Label();
        noItems.textProperty().bind(Bindings.when(model.selectedProperty().isNull())
                .then("Choose a batch above to see what became of its items.").otherwise("No item taken yet."));
        outcomesTable.setPlaceholder(noItems);
    }

    /**
     * What "Export incident report…" does with the chosen batch: its report, each item's outcome before the evidence.
     */
    public void onExportReport(LongConsumer exporter) {
        this.reportExporter = exporter;
    }

    /** Where a failed-again item's link goes: the console shows that operation's new DLQ entry. */
    public void onShowEntry(BiConsumer<String, Long> shower) {
        this.entryShower = shower;
    }

    private static final class ProgressCell extends TableCell<BatchRow, Double> {
        private final ProgressBar bar = new ProgressBar();

        ProgressCell() {
            bar.setMaxWidth(Double.MAX_VALUE);
        }

        @Override
        protected void updateItem(Double fraction, boolean empty) {
            super.updateItem(fraction, empty);
            if (empty || fraction == null) {
                setGraphic(null);
            } else {
                bar.setProgress(fraction);
                setGraphic(bar);
            }
        }
    }

    /** The toolbar's badge: "Batches" or "Batches: N running"; clicking it opens the list. */
    public Button badge() {
        return badge;
    }

    /** Opens the list over the window and follows the batches while it is open. */
    public void open(Window owner) {
        model.refresh();
        polling.play();
        ListDialog.show(owner, "Durable batches", root(), new DialogSize(1100, 640), polling::stop);
    }

    /**
     * Asks why (and who, and how fast), then redrives every open entry of the group as a durable batch run here, and
     * shows the list so that its progress can be followed.
     */
    public void startGroup(Window owner, String fingerprint, long openEntries, String operator) {
        TextArea reason = new TextArea();
        reason.setId("groupBatchReason");
        TabMovesFocus.install(reason);
        reason.setPrefRowCount(3);
        reason.setWrapText(true);
        TextField who = new TextField(operator);
        who.setId("groupBatchOperator");
        Spinner<Integer> rate = TypedSpinner.editable(new Spinner<>(1, 100_000, 100));
        rate.setId("groupBatchRate");
        GridPane grid = new GridPane();
        grid.setHgap(10);
        grid.setVgap(8);
        // The labels keep their whole text; the fields take the rest of the width.
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        grid.getColumnConstraints().addAll(labels, fields);
        grid.addRow(0, new Label("Reason"), reason);
        grid.addRow(1, new Label("Operator"), who);
        grid.addRow(2, new Label("Redrives per second"), rate);
        Dialog<Boolean> dialog = new Dialog<>();
        DialogPlacement.over(dialog, owner);
        dialog.setTitle("Redrive group " + fingerprint);
        dialog.setHeaderText("Redrive every open entry of group " + fingerprint + " (" + openEntries + " now) as a "
                + "durable batch: each entry is checked again as its chunk is recorded, and one that fails a check is "
                + "left open. Closing the console stops it between chunks; Batches ▸ Resume here goes on with it.");
        ButtonType start = new ButtonType("Redrive " + CountText.of(openEntries, "entry", "entries"),
                ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(start, ButtonType.CANCEL);
        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().getStylesheets().add(Theme.stylesheet());
        // The header is long: at a width of its own choosing it made the dialog wider than the screen, its fields off
        // the left edge. At this width it wraps.
        dialog.getDialogPane().setPrefWidth(GROUP_DIALOG_WIDTH);
        dialog.getDialogPane().lookupButton(start).disableProperty()
                .bind(reason.textProperty().isEmpty().or(who.textProperty().isEmpty()));
        dialog.setResultConverter(button -> button == start);
        ActButton.arm(dialog, start, reason);
        if (dialog.showAndWait().orElse(false)) {
            TypedSpinner.commit(rate);
            model.startGroup(fingerprint, who.getText().strip(), reason.getText().strip(), rate.getValue());
            open(owner);
        }
    }

    @FXML
    private void resume() {
        model.resume();
    }

    @FXML
    private void stop() {
        model.stop();
    }

    @FXML
    private void exportReport() {
        BatchRow selected = model.selectedProperty().get();
        if (selected != null) {
            reportExporter.accept(selected.id());
        }
    }
}
