package dev.redrive.console.wizard;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.util.List;
import java.util.Optional;

import static dev.redrive.console.wizard.WizardClicks.WAIT;
import static dev.redrive.console.wizard.WizardClicks.button;
import static dev.redrive.console.wizard.WizardClicks.next;
import static dev.redrive.console.wizard.WizardClicks.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The keys an operator presses in the wizard, on purpose or not: Enter in a field decides nothing, Tab leaves the
 * reason, Ctrl+Enter issues what the button names, Escape closes the result page.
 */
@ExtendWith(ApplicationExtension.class)
class WizardKeysTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final WizardWorker charging = new WizardWorker(ns, "keys-worker");

    @RegisterExtension
    final WizardStage fixture = new WizardStage();

    private static WizardItem deadLettered(String run) {
        OperationId id = new OperationId(run, "charge", 0);
        charging.client().dispatch(charging.client().newDispatch(id, "demo.charge", "1", "{\"amount\":10,\"fault\":\"forbidden:1\"}",
                "trace-" + run, "corr-" + run, null));
        return await().atMost(WAIT).until(() -> ns.database().jdbc().queryOne(
                "SELECT id, version FROM dlq_entries WHERE operation_id = ? AND decision_state = 'OPEN'",
                row -> new WizardItem(id.value(), row.getLong(1), row.getInt(2)), id.value()), Optional::isPresent).get();
    }

    private static String decision(WizardItem item) {
        return ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), item.dlqEntryId()).orElseThrow();
    }

    private Window openAtTheDecisionStep(FxRobot robot, WizardItem item) {
        fixture.open(charging.backend(), List.of(item), "#wizardOperation");
        await().atMost(WAIT).until(() -> text(robot, "#evidenceBadge").equals("NONE"));
        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
        next(robot);
        await().atMost(WAIT).until(() -> robot.lookup("#issueDecision").tryQuery().map(Node::isVisible).orElse(false));
        return robot.lookup("#decisionReason").query().getScene().getWindow();
    }

    @Test
    void enterInTheOperatorField_decidesNothing_tabLeavesTheReason_andCtrlEnterIssuesTheNamedAct(FxRobot robot) {
        WizardItem item = deadLettered("keys-enter");
        Window wizard = openAtTheDecisionStep(robot, item);
        await().atMost(WAIT).until(() -> wizard.getScene().getFocusOwner() != null
                && "decisionReason".equals(wizard.getScene().getFocusOwner().getId()));

        robot.write("merchant permission restored");
        robot.type(KeyCode.TAB);
        assertThat(wizard.getScene().getFocusOwner().getId()).as("Tab leaves the reason").isEqualTo("decisionOperator");
        assertThat(robot.lookup("#decisionReason").queryAs(TextArea.class).getText())
                .isEqualTo("merchant permission restored");
        robot.type(KeyCode.END).write("-x");
        robot.type(KeyCode.ENTER);
        robot.interact(() -> { });

        assertThat(robot.lookup("#issueDecision").tryQuery()).as("Enter in the operator field left the decision step")
                .isPresent();
        assertThat(decision(item)).as("Enter in the operator field").isEqualTo("OPEN");
        assertThat(robot.lookup("#issueDecision").queryButton().getText()).isEqualTo("Redrive 1 operation");
        assertThat(robot.lookup("#issueDecision").queryButton().isDefaultButton()).isFalse();
        assertThat(robot.lookup("#decisionOperator").queryTextInputControl().getText()).isEqualTo("ana-x");

        robot.press(KeyCode.CONTROL).press(KeyCode.ENTER).release(KeyCode.ENTER).release(KeyCode.CONTROL);

        await().atMost(WAIT).until(() -> !"OPEN".equals(decision(item)));
        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));
        assertThat(text(robot, "#resultGuide")).startsWith("Step 5 of 5 · Result. Done. Close (Esc) returns to the DLQ list");
        await().atMost(WAIT).until(() -> !button(robot, ButtonBar.ButtonData.FINISH).isDisabled());
        robot.type(KeyCode.ESCAPE);
        await().atMost(WAIT).until(() -> !wizard.isShowing());
    }

    @Test
    void enterOnTheFirstStep_goesOnToTheNext_neverCancels(FxRobot robot) {
        WizardItem item = deadLettered("keys-first");
        fixture.open(charging.backend(), List.of(item), "#wizardOperation");
        await().atMost(WAIT).until(() -> text(robot, "#evidenceBadge").equals("NONE"));
        Window wizard = robot.lookup("#wizardOperation").query().getScene().getWindow();
        await().atMost(WAIT).until(() -> wizard.getScene().getFocusOwner() != null);
        assertThat(wizard.getScene().getFocusOwner()).as("the focus on opening")
                .matches(owner -> !(owner instanceof Button button) || button.isDefaultButton(), "not on Cancel");

        robot.type(KeyCode.ENTER);

        await().atMost(WAIT).until(() -> robot.lookup("#reconcileMessage").tryQuery().map(Node::isVisible).orElse(false));
        assertThat(wizard.isShowing()).as("Enter on step 1").isTrue();
    }
}
