package dev.redrive.console.wizard;

import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import org.testfx.api.FxRobot;

import java.time.Duration;

import static org.awaitility.Awaitility.await;

/**
 * Clicks the reconciliation wizard as an operator does, by the buttons' roles (ControlsFX gives Finish a trailing
 * space, and step 4's Next names the act), waiting for each button to be enabled rather than for a fixed time.
 */
public final class WizardClicks {
    /** Long enough for a loaded machine: every wait ends as soon as its condition holds. */
    public static final Duration WAIT = Duration.ofSeconds(30);

    private WizardClicks() {
    }

    /** The visible button of the wizard with this role. */
    public static Button button(FxRobot robot, ButtonBar.ButtonData data) {
        return robot.lookup(".button").queryAllAs(Button.class).stream()
                .filter(button -> ButtonBar.getButtonData(button) == data && button.isVisible()).findFirst().orElseThrow();
    }

    /** Goes on to the next step once the step allows it. */
    public static void next(FxRobot robot) {
        await().atMost(WAIT).until(() -> !button(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled());
        robot.clickOn(button(robot, ButtonBar.ButtonData.NEXT_FORWARD));
    }

    /** Presses the decision step's button, which names the act and its size ("Redrive 1 operation"). */
    public static void issue(FxRobot robot, String act) {
        await().atMost(WAIT).until(() -> button(robot, ButtonBar.ButtonData.NEXT_FORWARD).getText().equals(act)
                && !button(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled());
        robot.clickOn(button(robot, ButtonBar.ButtonData.NEXT_FORWARD));
    }

    public static boolean nextDisabled(FxRobot robot) {
        return button(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled();
    }

    /** Once issued there is no going back: the result step has no Previous button. */
    public static boolean noPrevious(FxRobot robot) {
        return robot.lookup(".button").queryAllAs(Button.class).stream()
                .noneMatch(button -> ButtonBar.getButtonData(button) == ButtonBar.ButtonData.BACK_PREVIOUS
                        && button.isVisible());
    }

    /** The text of the label with this id ("#itemOutcome"). */
    public static String text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    /** Scrolls the decision page, as an operator does where the window is small, until the node is in view. */
    public static void reveal(FxRobot robot, Node node) {
        ScrollPane scroll = robot.lookup("#decisionScroll").queryAs(ScrollPane.class);
        if (!scrolled(scroll, node)) {
            return;
        }
        robot.interact(() -> {
            Bounds at = scroll.getContent().sceneToLocal(node.localToScene(node.getBoundsInLocal()));
            double hidden = scroll.getContent().getBoundsInLocal().getHeight() - scroll.getViewportBounds().getHeight();
            if (hidden > 0) {
                scroll.setVvalue(Math.min(1, Math.max(0, (at.getMaxY() - scroll.getViewportBounds().getHeight()) / hidden)));
            }
        });
    }

    /** Whether the node is in the decision page's scrolled part (the reason and the operator are not). */
    public static boolean scrolled(ScrollPane scroll, Node node) {
        for (Node at = node; at != null; at = at.getParent()) {
            if (at == scroll.getContent()) {
                return true;
            }
        }
        return false;
    }

    /** Clicks a node of the decision page, scrolled into view first. */
    public static void clickOnDecisionPage(FxRobot robot, String id) {
        reveal(robot, robot.lookup(id).query());
        robot.clickOn(id);
    }
}
