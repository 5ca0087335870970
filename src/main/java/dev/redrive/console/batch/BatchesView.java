package dev.redrive.console.batch;

import dev.redrive.console.ui.DialogSize;
import dev.redrive.console.ui.Fxml;
import dev.redrive.console.ui.ListDialog;
import dev.redrive.console.ui.TextColumn;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Window;
import javafx.util.Duration;

import java.util.List;

/**
 * The batches badge of the main window's toolbar and the list it opens: every recent durable batch with a progress
 * bar, its pace and the time it still takes, read again each second while the list is open.
 */
public final class BatchesView {
    private static final PseudoClass RUNNING = PseudoClass.getPseudoClass("running");
    private static final Duration POLL = Duration.seconds(1);

    @FXML private TableView<BatchRow> batchesTable;
    @FXML private Button resumeButton;
    @FXML private Button stopButton;
    @FXML private Label messageLabel;

    private Parent root;
    private BatchesViewModel model;
    private final Button badge = new Button();
    private final Timeline polling = new Timeline(new KeyFrame(POLL, event -> model.refresh()));

    public static BatchesView load(BatchesViewModel model) {
        Fxml.Loaded<BatchesView> loaded = Fxml.load("/console/batch/Batches.fxml");
        BatchesView view = loaded.controller();
        view.root = loaded.root();
        view.model = model;
        view.initializeParts();
        view.bindFieldsToModel();
        return view;
    }

    private void initializeParts() {
        badge.setId("batchesBadge");
        badge.getStyleClass().addAll("flat", "batches-badge");
        badge.setOnAction(event -> open(badge.getScene().getWindow()));
        polling.setCycleCount(Timeline.INDEFINITE);
        TableColumn<BatchRow, Double> progress = new TableColumn<>("Progress");
        progress.setPrefWidth(130);
        progress.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue().batch().fraction()));
        progress.setCellFactory(column -> new ProgressCell());
        batchesTable.getColumns().setAll(List.of(
                TextColumn.of("Id", 50, row -> String.valueOf(row.id())),
                TextColumn.of("Decides", 260, BatchRow::what),
                TextColumn.of("By", 150, BatchRow::who),
                TextColumn.of("State", 190, BatchRow::state),
                progress,
                TextColumn.of("Done", 150, BatchRow::progress),
                TextColumn.of("Pace", 190, BatchRow::pace)));
        batchesTable.setPlaceholder(new Label("No batch yet: a group or filter redrive (redrive --group, or an "
                + "approved batch request) shows here."));
    }

    private void bindFieldsToModel() {
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
        messageLabel.textProperty().bind(model.messageProperty());
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
        ListDialog.show(owner, "Durable batches", root, new DialogSize(1100, 520), polling::stop);
    }

    @FXML
    private void resume() {
        model.resume();
    }

    @FXML
    private void stop() {
        model.stop();
    }
}
