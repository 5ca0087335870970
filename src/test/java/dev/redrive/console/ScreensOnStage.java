package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.main.Theme;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.console.ui.DesktopServices;
import dev.redrive.testing.TestNamespace;
import javafx.scene.Scene;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.stage.Stage;

import java.time.Clock;
import java.util.prefs.Preferences;

/**
 * The session's screens laid out as the main window lays them out (health on top, browser beside detail), connected
 * to a test namespace and started. Close it after each test.
 */
final class ScreensOnStage implements AutoCloseable {
    private final ConsoleSession session;
    private final UiExecutor executor;
    private final ConsoleScreens screens;

    private ScreensOnStage(ConsoleSession session, UiExecutor executor, ConsoleScreens screens) {
        this.session = session;
        this.executor = executor;
        this.screens = screens;
    }

    static ScreensOnStage show(Stage stage, TestNamespace ns, Preferences preferences, DesktopServices desktop) {
        Theme.apply(false);
        ConsoleSession session = ConsoleSession.open(ConnectionProfile.of("test", ns.config()), ns.config(),
                Clock.systemUTC());
        UiExecutor executor = UiExecutor.forFx(2);
        ConsoleScreens screens = new ConsoleScreens(session, executor, preferences, desktop);
        BorderPane root = new BorderPane(new SplitPane(screens.browser(), screens.detail()));
        root.setTop(screens.health());
        Scene scene = new Scene(root, 1260, 780);
        scene.getStylesheets().add(Theme.stylesheet());
        stage.setScene(scene);
        stage.show();
        screens.start();
        return new ScreensOnStage(session, executor, screens);
    }

    @Override
    public void close() {
        screens.close();
        executor.close();
        session.close();
    }
}
