package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Theme;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The window a console test opens its dialogs over, standing in for the console, and the executor their view models
 * run on. Register it on an instance field with {@code @RegisterExtension} in a class that TestFX's
 * {@code ApplicationExtension} runs: before each test it shows the window; after it, it hides every window the test
 * left open (dialogs, the wizard) and stops the executor, so that the next test starts on the bare window.
 */
public class OwnerWindow implements BeforeEachCallback, AfterEachCallback {
    private final double width;
    private final double height;
    private final UiExecutor executor = UiExecutor.forFx(2);
    private final FxRobot robot = new FxRobot();
    private Stage stage;

    public OwnerWindow(double width, double height) {
        this.width = width;
        this.height = height;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        stage = FxToolkit.registerPrimaryStage();
        FxToolkit.setupStage(shown -> {
            Theme.apply(false);
            shown.setScene(new Scene(new StackPane(), width, height));
            shown.show();
        });
    }

    @Override
    public void afterEach(ExtensionContext context) {
        robot.interact(() -> robot.listTargetWindows().stream().filter(window -> window != stage).toList()
                .forEach(Window::hide));
        executor.close();
    }

    /** Whether the windows the test opened over the stage are all closed. */
    public boolean onlyTheStageShows() {
        return robot.listTargetWindows().stream().noneMatch(window -> window != stage && window.isShowing());
    }

    public Stage stage() {
        return stage;
    }

    public UiExecutor executor() {
        return executor;
    }
}
