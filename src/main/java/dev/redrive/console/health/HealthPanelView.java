package dev.redrive.console.health;

import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.console.ui.DesktopNotices;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.ui.FxmlView;
import dev.redrive.health.HealthAlert;
import dev.redrive.health.HealthThresholds;
import dev.redrive.health.ToolThroughput;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.IntegerBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.ListChangeListener;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.geometry.Insets;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.util.Duration;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The queue-health strip: numbers, the alert banner, desktop notifications and the thresholds dialog; with a
 * Prometheus server, a tile of the busiest tools' throughput and failure rate.
 */
public final class HealthPanelView extends FxmlView<HealthPanelViewModel> {
    /** Tool rows the tile holds without making the strip taller than two more lines. */
    private static final int SHOWN_TOOLS = 3;
    /** Below this window width the banner's sentence does not fit beside the tiles: a badge stands for it. */
    static final double BADGE_BELOW = 1400;
    private static final PseudoClass BADGE = PseudoClass.getPseudoClass("badge");

    @FXML private HBox banner;
    @FXML private Label bannerIcon;
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
    @FXML private VBox throughputTile;
    @FXML private GridPane throughputRows;
    @FXML private Label throughputStatus;

    private Timeline polling;
    private Timeline throughputPolling;
    private Consumer<HealthThresholds> thresholdsSaver = thresholds -> { };

    public static HealthPanelView load(HealthPanelViewModel model) {
        return FxmlView.load("/console/health/HealthPanel.fxml", model);
    }

    @Override
    protected void bind() {
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
        bindBanner();
        model.alertingProperty().addListener((obs, was, now) -> dlqTile.pseudoClassStateChanged(
                javafx.css.PseudoClass.getPseudoClass("alert"), now));
        Tooltip pendingTip = new Tooltip();
        pendingTip.setOnShowing(event -> pendingTip.setText(model.pendingListing()));
        Tooltip.install(pendingTile, pendingTip);
        model.onNewAlert(this::notify);
        bindThroughput();
    }

    /**
     * One line whatever the width, so the strip keeps its height when an alert comes (a wrapped banner pushed the list
     * down under the operator's pointer): the whole sentence where it fits, else (and always below
     * {@value #BADGE_BELOW} px) a badge counting the alerts; the sentence is always in the tooltip.
     */
    private void bindBanner() {
        BooleanProperty narrow = new SimpleBooleanProperty();
        root().sceneProperty().addListener((obs, was, scene) -> {
            narrow.unbind();
            if (scene != null) {
                narrow.bind(scene.widthProperty().lessThan(BADGE_BELOW));
            }
        });
        BooleanBinding badge = Bindings.createBooleanBinding(() -> narrow.get() || !sentenceFits(), narrow,
                banner.widthProperty(), model.bannerProperty());
        IntegerBinding count = Bindings.size(model.alerts());
        bannerLabel.textProperty().bind(Bindings.when(badge)
                .then(Bindings.createStringBinding(() -> count.get() == 1 ? "1 DLQ alert" : count.get() + " DLQ alerts",
                        count))
                .otherwise(model.bannerProperty()));
        banner.visibleProperty().bind(model.alertingProperty());
        Tooltip whole = new Tooltip();
        whole.textProperty().bind(model.bannerProperty());
        Tooltip.install(banner, whole);
        badge.addListener((obs, was, now) -> {
            banner.pseudoClassStateChanged(BADGE, now);
            // The badge keeps its few words whole.
            banner.setMinWidth(now ? Region.USE_COMPUTED_SIZE : 0);
            bannerLabel.setMinWidth(now ? Region.USE_PREF_SIZE : 0);
        });
    }

    /** Whether the whole sentence fits in the banner's room beside its icon. */
    private boolean sentenceFits() {
        Text probe = new Text(model.bannerProperty().get());
        probe.setFont(bannerLabel.getFont());
        double room = banner.getWidth() - banner.snappedLeftInset() - banner.snappedRightInset() - banner.getSpacing()
                - bannerIcon.getWidth();
        return probe.getLayoutBounds().getWidth() <= room;
    }

    private void bindThroughput() {
        throughputTile.setVisible(model.showsThroughput());
        throughputTile.setManaged(model.showsThroughput());
        throughputStatus.textProperty().bind(model.throughputStatusProperty());
        Tooltip everyTool = new Tooltip();
        everyTool.setOnShowing(event -> everyTool.setText(throughputListing()));
        Tooltip.install(throughputTile, everyTool);
        model.throughput().addListener((ListChangeListener<ToolThroughput>) change -> showThroughputRows());
    }

    /** The busiest tools, one row each; the tile's tooltip lists them all. */
    private void showThroughputRows() {
        throughputRows.getChildren().clear();
        List<ToolThroughput> tools = model.throughput();
        for (int row = 0; row < Math.min(SHOWN_TOOLS, tools.size()); row++) {
            ToolThroughput tool = tools.get(row);
            throughputRows.addRow(row, throughputCell(tool.tool(), "throughput-tool"),
                    throughputCell(HealthPanelViewModel.perSecond(tool.attemptsPerSecond()), "throughput-rate"),
                    throughputCell(HealthPanelViewModel.failedShare(tool.failureRatio()), "throughput-failed"));
        }
        if (tools.size() > SHOWN_TOOLS) {
            throughputRows.add(throughputCell("+" + (tools.size() - SHOWN_TOOLS) + " more (hover)", "health-detail"),
                    0, SHOWN_TOOLS, 3, 1);
        }
    }

    private static Label throughputCell(String text, String styleClass) {
        Label label = new Label(text);
        label.getStyleClass().add(styleClass);
        label.setMinWidth(Label.USE_PREF_SIZE);
        return label;
    }

    private String throughputListing() {
        if (model.throughput().isEmpty()) {
            return model.throughputStatusProperty().get();
        }
        return model.throughput().stream().map(tool -> tool.tool() + "  " + HealthPanelViewModel.perSecond(
                        tool.attemptsPerSecond()) + "  " + HealthPanelViewModel.failedShare(tool.failureRatio()))
                .collect(Collectors.joining("\n"));
    }

    /** A desktop notice of an alert; alerts arriving while one shows collapse into one notice. */
    private void notify(HealthAlert alert) {
        DesktopNotices.warn(root(), "Redrive · DLQ alert", alert.message(),
                "Several DLQ alerts: the banner above the list shows the current one.");
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
        if (model.showsThroughput()) {
            model.refreshThroughput();
            throughputPolling = new Timeline(new KeyFrame(
                    Duration.millis(HealthPanelViewModel.throughputPeriod().toMillis()), event -> model.refreshThroughput()));
            throughputPolling.setCycleCount(Timeline.INDEFINITE);
            throughputPolling.play();
        }
    }

    public void stop() {
        if (polling != null) {
            polling.stop();
        }
        if (throughputPolling != null) {
            throughputPolling.stop();
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
        grid.setPadding(new Insets(12, 12, 0, 12));
        grid.addRow(0, new Label("Open DLQ entries above"), depth);
        grid.addRow(1, new Label("New entries per minute above"), perMinute);
        grid.addRow(2, new Label("Oldest open entry older than (minutes)"), ageMinutes);
        grid.add(new Label("0 switches a threshold off."), 0, 3, 2, 1);
        Dialog<HealthThresholds> dialog = new Dialog<>();
        dialog.setTitle("Alert thresholds");
        DialogPlacement.over(dialog, root().getScene().getWindow());
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
}
