package dev.redrive.console.detail;

import dev.redrive.console.RecordingDesktop;
import dev.redrive.console.ThemedStage;
import dev.redrive.console.main.WindowLayout;
import javafx.scene.Parent;
import javafx.stage.Stage;

/** The detail pane alone on the test's stage, at the widths the main window gives it beside the list. */
final class DetailPane {
    /** The pane's width in the main window at its default size. */
    static final double DEFAULT_WIDTH = WindowLayout.DEFAULT.width() * (1 - WindowLayout.DEFAULT.browserDivider());
    /** The pane's width in a main window 1280 px wide. */
    static final double NARROW_WIDTH = 1280 * (1 - WindowLayout.DEFAULT.browserDivider());

    private DetailPane() {
    }

    /** Shows the pane of {@code model} at the default width; its root. */
    static Parent show(Stage stage, OperationDetailViewModel model) {
        Parent root = OperationDetailView.load(model, new RecordingDesktop()).root();
        ThemedStage.show(stage, root, DEFAULT_WIDTH, 760);
        return root;
    }
}
