package dev.redrive.console.health;

import dev.redrive.console.ui.Theme;
import dev.redrive.console.ui.Fxml;
import dev.redrive.health.HealthAlert;
import dev.redrive.health.HealthThresholds;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.fxml.FXML;
import javafx.geometry.Pos;
import javafx.scene.Parent;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.controlsfx.control.Notifications;

import java.io.IOException;
import java.util.function.Consumer;

/** The queue-health strip: numbers, the alert banner, desktop notifications and the thresholds dialog. */
public final class HealthPanelView {
    @FXML private HBox banner;
    @FXML private Label bannerLabel;
    @FXML private Label dispatchLength;
    @FXML private Label lag;
    @FXML private Label pending;
    @FXML private Label pendingDetail;
    @FXML private VBox pendingTile;
    @FXML private Label retrySet;
    @FXML private Label nextRetry;
    @FXML private Label dlqOpen;
    @FXML private Label dlqGrowth;
    @FXML private VBox dlqTile;
    @FXML private Label oldestOpen;
    @FXML private Label updated;

    private Parent root;
    private HealthPanelViewModel model;
    private Timeline polling;
    private Consumer<HealthThresholds> thresholdsSaver = thresholds -> { };

    public static HealthPanelView load(HealthPanelViewModel model) {
        Fxml.Loaded<HealthPanelView> loaded = Fxml.load("/console/health/HealthPanel.fxml");
        HealthPanelView view = loaded.controller();
        view.root = loaded.root();
        view.model = model;
        view.bind();
        return view;
    }

    private void bind() {
        dispatchLength.textProperty().bind(model.dispatchLengthProperty());
        lag.textProperty().bind(model.lagProperty());
        pending.textProperty().bind(model.pendingProperty());
        pendingDetail.textProperty().bind(model.pendingDetailProperty());
        retrySet.textProperty().bind(model.retrySetProperty());
        nextRetry.textProperty().bind(model.nextRetryProperty());
        dlqOpen.textProperty().bind(model.dlqOpenProperty());
        dlqGrowth.textProperty().bind(model.dlqGrowthProperty());
        oldestOpen.textProperty().bind(model.oldestOpenProperty());
        updated.textProperty().bind(model.updatedProperty());
        bannerLabel.textProperty().bind(model.bannerProperty());
        banner.visibleProperty().bind(model.alertingProperty());
        model.alertingProperty().addListener((obs, was, now) -> dlqTile.pseudoClassStateChanged(
                javafx.css.PseudoClass.getPseudoClass("alert"), now));
        Tooltip pendingTip = new Tooltip();
        pendingTip.setOnShowing(event -> pendingTip.setText(model.pendingListing()));
        Tooltip.install(pendingTile, pendingTip);
        model.onNewAlert(this::notify);
    }

    /**
     * A desktop notification at the bottom right, over the status bar's connection text rather than the toolbar's
     * controls; alerts arriving while one shows collapse into one notification.
     */
    private void notify(HealthAlert alert) {
        if (root.getScene() == null || root.getScene().getWindow() == null) {
            return;
        }
        Notifications collapsed = styled(Notifications.create()
                .title("Redrive · DLQ alerts")
                .text("Several DLQ alerts: the banner above the list shows the current one."));
        styled(Notifications.create()
                .title("Redrive · DLQ alert")
                .text(alert.message())
                .threshold(1, collapsed))
                .showWarning();
    }

    private Notifications styled(Notifications notification) {
        notification.owner(root.getScene().getWindow()).position(Pos.BOTTOM_RIGHT).hideAfter(Duration.seconds(8));
        return Theme.isDark() ? notification.darkStyle() : notification;
    }

    /** Where changed thresholds are saved (the user's preferences). */
    public void onThresholdsSaved(Consumer<HealthThresholds> saver) {
        this.thresholdsSaver = saver;
    }

    /** Reads now and then every {@code period}; reads never overlap. */
    public void startPolling(java.time.Duration period) {
        model.refresh();
        polling = new Timeline(new KeyFrame(Duration.millis(period.toMillis()), event -> model.refresh()));
        polling.setCycleCount(Timeline.INDEFINITE);
        polling.play();
    }

    public void stop() {
        if (polling != null) {
            polling.stop();
        }
    }

    @FXML
    private void editThresholds() {
        HealthThresholds current = model.thresholdsProperty().get();
        Spinner<Integer> depth = new Spinner<>(0, 10_000_000, (int) current.maxOpenDepth(), 10);
        Spinner<Integer> perMinute = new Spinner<>(0, 1_000_000, (int) current.maxNewPerMinute(), 1);
        Spinner<Integer> ageMinutes = new Spinner<>(0, 100_000, (int) current.maxOldestOpenAge().toMinutes(), 5);
        for (Spinner<Integer> spinner : java.util.List.of(depth, perMinute, ageMinutes)) {
            spinner.setEditable(true);
        }
        GridPane grid = new GridPane();
        grid.setHgap(12);
        grid.setVgap(8);
        grid.addRow(0, new Label("Open DLQ entries above"), depth);
        grid.addRow(1, new Label("New entries per minute above"), perMinute);
        grid.addRow(2, new Label("Oldest open entry older than (minutes)"), ageMinutes);
        grid.add(new Label("0 switches a threshold off."), 0, 3, 2, 1);
        Dialog<HealthThresholds> dialog = new Dialog<>();
        dialog.setTitle("Alert thresholds");
        dialog.initOwner(root.getScene().getWindow());
        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        dialog.setResultConverter(button -> button == ButtonType.OK
                ? new HealthThresholds(depth.getValue(), perMinute.getValue(),
                java.time.Duration.ofMinutes(ageMinutes.getValue()))
                : null);
        dialog.showAndWait().ifPresent(thresholds -> {
            model.setThresholds(thresholds);
            thresholdsSaver.accept(thresholds);
        });
    }

    public Parent root() {
        return root;
    }
}
