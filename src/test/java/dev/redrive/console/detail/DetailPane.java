package dev.redrive.console.detail;

import dev.redrive.console.RecordingDesktop;
import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.main.WindowLayout;
import dev.redrive.console.ui.Theme;
import dev.redrive.testing.TestNamespace;
import javafx.scene.Parent;
import javafx.stage.Stage;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The detail pane alone on the test's stage, reading the test namespace as the console does, at the width the main
 * window gives it beside the list. Register it as an instance field and show it from the test's {@code @Start}; its
 * executor closes after each test.
 */
final class DetailPane implements AfterEachCallback {
    /** The pane's width in the main window at its default size. */
    static final double DEFAULT_WIDTH = WindowLayout.DEFAULT.width() * (1 - WindowLayout.DEFAULT.browserDivider());
    /** The pane's width in a main window 1280 px wide. */
    static final double NARROW_WIDTH = 1280 * (1 - WindowLayout.DEFAULT.browserDivider());

    private final TestNamespace ns;
    private final UiExecutor executor = UiExecutor.forFx(2);
    private OperationDetailViewModel model;
    private Parent root;

    DetailPane(TestNamespace ns) {
        this.ns = ns;
    }

    /** Shows the pane, light theme, at the default width. */
    void show(Stage stage) {
        Theme.apply(false);
        model = DetailModels.over(ns.database(), executor, TracerLinks.NONE);
        root = OperationDetailView.load(model, new RecordingDesktop()).root();
        ThemedStage.show(stage, root, DEFAULT_WIDTH, 760);
    }

    OperationDetailViewModel model() {
        return model;
    }

    Parent root() {
        return root;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        executor.close();
    }
}
