package dev.redrive.console.main;

import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.console.ui.Shown;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.ui.FxmlView;
import atlantafx.base.controls.ToggleSwitch;
import javafx.beans.binding.Bindings;
import javafx.fxml.FXML;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.stage.Screen;
import javafx.stage.Stage;

import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import java.util.function.Function;

/**
 * The main window: toolbar (connection, theme), queue health on top, the DLQ browser beside the operation detail,
 * and a status bar that shows failures without blocking.
 */
public final class MainWindowView extends FxmlView<MainWindowViewModel> {
    @FXML private ToggleSwitch darkSwitch;
    @FXML private ProgressIndicator busyIndicator;
    @FXML private MenuItem reconnectItem;
    @FXML private StackPane requestsHost;
    @FXML private StackPane batchesHost;
    @FXML private StackPane healthHost;
    @FXML private SplitPane mainSplit;
    @FXML private StackPane browserHost;
    @FXML private StackPane detailHost;
    @FXML private Label placeholder;
    @FXML private Label statusLabel;
    @FXML private HBox errorBox;
    @FXML private Label errorLabel;
    @FXML private Button retryButton;
    @FXML private Label connectionLabel;

    private Function<ConsoleSession, SessionScreens> screensFactory;
    private SessionScreens screens;
    private Runnable profilesOpener = () -> { };

    public static MainWindowView load(MainWindowViewModel model, Function<ConsoleSession, SessionScreens> screensFactory) {
        return FxmlView.load("/console/main/MainWindow.fxml", model, view -> view.screensFactory = screensFactory);
    }

    @Override
    protected void bind() {
        connectionLabel.textProperty().bind(model.connectionProperty());
        Tooltip connectionTip = new Tooltip();
        connectionTip.textProperty().bind(model.connectionDetailsProperty());
        connectionLabel.setTooltip(connectionTip);
        statusLabel.textProperty().bind(model.statusProperty());
        errorLabel.textProperty().bind(model.errorProperty());
        Shown.when(model.errorProperty().isNotNull(), errorBox);
        Shown.when(model.sessionProperty().isNull(), retryButton);
        reconnectItem.disableProperty().bind(model.connectingProperty());
        busyIndicator.visibleProperty().bind(model.busyProperty());
        darkSwitch.selectedProperty().bindBidirectional(model.darkThemeProperty());
        model.darkThemeProperty().addListener((obs, was, dark) -> Theme.apply(dark));
        model.sessionProperty().addListener((obs, previous, session) -> showSession(session));
        placeholder.textProperty().bind(Bindings.when(model.connectingProperty())
                .then("Connecting…").otherwise("Not connected. Choose Connection ▸ Connection profiles…"));
    }

    private void showSession(ConsoleSession session) {
        if (screens != null) {
            screens.close();
            screens = null;
        }
        if (session == null) {
            healthHost.getChildren().clear();
            requestsHost.getChildren().clear();
            batchesHost.getChildren().clear();
            browserHost.getChildren().setAll(placeholder);
            return;
        }
        screens = screensFactory.apply(session);
        healthHost.getChildren().setAll(screens.health());
        browserHost.getChildren().setAll(screens.browser());
        detailHost.getChildren().setAll(screens.detail());
        requestsHost.getChildren().setAll(screens.requests());
        batchesHost.getChildren().setAll(screens.batches());
        screens.start();
    }

    /** What opens the profiles dialog (set by the application, which owns the profile store). */
    public void onOpenProfiles(Runnable opener) {
        this.profilesOpener = opener;
    }

    @FXML
    private void openProfiles() {
        profilesOpener.run();
    }

    @FXML
    private void reconnect() {
        model.retryConnect();
    }

    @FXML
    private void dismissError() {
        model.dismissError();
    }

    @FXML
    private void showErrors() {
        ListView<String> list = new ListView<>(model.recentErrors());
        list.setPrefSize(720, 320);
        Alert alert = new Alert(Alert.AlertType.INFORMATION);
        alert.setTitle("Recent errors");
        alert.setHeaderText(model.recentErrors().isEmpty() ? "No errors so far" : "Most recent first");
        alert.getDialogPane().setContent(list);
        DialogPlacement.over(alert, root().getScene().getWindow());
        alert.show();
    }

    /**
     * The layout remembered for the screen the window was last closed on (the primary screen when that one is gone or
     * on a first start), fitted to that screen's work area.
     */
    public static WindowLayout remembered(Preferences preferences) {
        String last = WindowLayout.lastScreen(preferences);
        Screen screen = Screen.getScreens().stream()
                .filter(candidate -> WindowLayout.screenKey(candidate.getBounds()).equals(last))
                .findFirst().orElse(Screen.getPrimary());
        WindowLayout layout;
        try {
            layout = WindowLayout.load(preferences, WindowLayout.screenKey(screen.getBounds()));
        } catch (BackingStoreException e) {
            layout = WindowLayout.DEFAULT;
        }
        return layout.within(screen.getVisualBounds());
    }

    /** Puts the window where the layout says (it is fitted to a screen) and splits it as it was split. */
    public void restore(Stage stage, WindowLayout layout) {
        stage.setWidth(layout.width());
        stage.setHeight(layout.height());
        stage.setX(layout.x());
        stage.setY(layout.y());
        stage.setMaximized(layout.maximized());
        mainSplit.setDividerPositions(layout.browserDivider());
        model.darkThemeProperty().set(layout.darkTheme());
    }

    /** Remembers the window's place for the screen it is on now. */
    public void saveLayout(Stage stage, Preferences preferences) {
        Screen screen = Screen.getScreensForRectangle(stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight())
                .stream().findFirst().orElse(Screen.getPrimary());
        currentLayout(stage).save(preferences, WindowLayout.screenKey(screen.getBounds()));
    }

    public WindowLayout currentLayout(Stage stage) {
        return new WindowLayout(stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight(), stage.isMaximized(),
                mainSplit.getDividerPositions()[0], model.darkThemeProperty().get());
    }

    public void close() {
        if (screens != null) {
            screens.close();
            screens = null;
        }
        model.close();
    }
}
