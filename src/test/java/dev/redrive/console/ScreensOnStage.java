package dev.redrive.console;

import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.console.main.ConsoleSession;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.console.ui.DesktopServices;
import dev.redrive.testing.TestNamespace;
import javafx.scene.Scene;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.stage.Stage;

import org.testfx.util.WaitForAsyncUtils;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.prefs.Preferences;

/**
 * The session's screens laid out as the main window lays them out (health on top, browser beside detail), connected
 * to a test namespace and started. Close it after each test.
 */
record ScreensOnStage(ConsoleSession session, UiExecutor executor, ConsoleScreens screens) implements AutoCloseable {

    static ScreensOnStage show(Stage stage, TestNamespace ns, Preferences preferences, DesktopServices desktop) {
        return show(stage, ns, preferences, desktop, 1260, 780, 0.5);
    }

    /** In a window of the given size, the list taking {@code divider} of its width as the console's default does. */
    static ScreensOnStage show(Stage stage, TestNamespace ns, Preferences preferences, DesktopServices desktop,
                               double width, double height, double divider) {
        Theme.apply(false);
        ConsoleSession session = ConsoleSession.open(ConnectionProfile.of("test", ns.config()), ns.config(),
                Clock.systemUTC(), DemoToolServer::lookupEndpoints);
        UiExecutor executor = UiExecutor.forFx(2);
        ConsoleScreens screens = new ConsoleScreens(session, executor, preferences, desktop);
        SplitPane split = new SplitPane(screens.browser(), screens.detail());
        split.setDividerPositions(divider);
        BorderPane root = new BorderPane(split);
        root.setTop(screens.health());
        Scene scene = new Scene(root, width, height);
        scene.getStylesheets().add(Theme.stylesheet());
        stage.setScene(scene);
        // The test stage is shared by test classes: one that resized it must not leave its size to the next.
        stage.sizeToScene();
        stage.show();
        screens.start();
        return new ScreensOnStage(session, executor, screens);
    }

    /**
     * Whether the screens have no background work running or queued, once the FX thread has run what it was handed:
     * then every read they started has ended and called back, and until the next poll nothing changes on screen.
     */
    boolean idle() throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        return WaitForAsyncUtils.asyncFx(() -> executor.runningProperty().get() == 0).get(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        screens.close();
        executor.close();
        session.close();
    }
}
