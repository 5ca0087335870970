package dev.redrive.console;

import javafx.scene.control.Button;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Discards what the detail pane shows as an operator does: from its More menu, through the decision dialog. */
final class DetailDiscard {
    private DetailDiscard() {
    }

    /** Opens the decision dialog from the detail pane's More menu. */
    static void open(FxRobot robot) {
        robot.clickOn("More");
        robot.clickOn("Discard…");
    }

    /**
     * Writes {@code reason} into the open dialog and presses its Discard button; waits for the result, checks that it
     * is titled as the dialog that asked ({@code title}), and closes it.
     */
    static void confirm(FxRobot robot, String reason, String title, Duration wait) {
        robot.clickOn("#decisionDialogReason").write(reason);
        robot.clickOn(robot.lookup(".dialog-pane .button")
                .match((Button button) -> "Discard".equals(button.getText())).queryButton());

        await().atMost(wait).until(() -> robot.lookup("Recorded").tryQuery().isPresent());
        assertThat(robot.listWindows()).as("the result is titled as the dialog that asked")
                .anyMatch(window -> window instanceof Stage stage && title.equals(stage.getTitle()));
        robot.clickOn("OK");
    }
}
