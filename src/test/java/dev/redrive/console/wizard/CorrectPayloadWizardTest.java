package dev.redrive.console.wizard;

import dev.redrive.console.ui.Truncations;
import dev.redrive.identity.OperationId;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.testing.TestNamespace;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ScrollPane;
import javafx.stage.Window;
import javafx.geometry.Bounds;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.redrive.console.wizard.WizardClicks.WAIT;
import static dev.redrive.console.wizard.WizardClicks.button;
import static dev.redrive.console.wizard.WizardClicks.clickOnDecisionPage;
import static dev.redrive.console.wizard.WizardClicks.next;
import static dev.redrive.console.wizard.WizardClicks.reveal;
import static dev.redrive.console.wizard.WizardClicks.text;
import static org.awaitility.Awaitility.await;

/**
 * Correct payload and redrive from the wizard, through a real worker and the demo charge tool: the tool refuses an
 * amount sent as text (INVALID_INPUT); the operator fixes it in the editor and the tool sees exactly one call, with the
 * corrected payload, under the correction's own key, and with the stored card number where the editor showed a mask.
 */
@ExtendWith(ApplicationExtension.class)
class CorrectPayloadWizardTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final WizardWorker charging = new WizardWorker(ns, "correct-wizard");
    private static final String CARD = "4111 1111 1111 4242";


    @RegisterExtension
    final WizardStage fixture = new WizardStage();
    private ReconciliationWizardViewModel model;

    /** A charge whose amount a client sent as text: the tool refuses it, and the worker dead-letters it at once. */
    private static WizardItem refusedCharge(OperationId id) {
        charging.client().dispatch(charging.client().newDispatch(id, "demo.charge", "1",
                "{\"amount\":\"12.50 EUR\",\"currency\":\"EUR\",\"card_number\":\"" + CARD + "\"}",
                "trace-" + id.runId(), "corr-" + id.runId(), null));
        return await().atMost(WAIT).until(() -> ns.jdbc().queryOne(
                "SELECT id, version FROM dlq_entries WHERE operation_id = ? AND decision_state = 'OPEN' "
                        + "AND error_class = 'INVALID_INPUT'",
                row -> new WizardItem(id.value(), row.getLong(1), row.getInt(2)), id.value()), Optional::isPresent).get();
    }

    /** Opens the wizard on the item and goes on to the decision step with the correction chosen. */
    private void toTheEditor(FxRobot robot, WizardItem item) {
        toTheEditor(robot, item, fixture.stage());
    }

    private void toTheEditor(FxRobot robot, WizardItem item, Window owner) {
        model = fixture.open(charging.backend(), List.of(item), "#wizardOperation", owner);
        assertInView(robot, button(robot, ButtonBar.ButtonData.NEXT_FORWARD));
        next(robot);
        assertInView(robot, button(robot, ButtonBar.ButtonData.NEXT_FORWARD));
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
        assertInView(robot, button(robot, ButtonBar.ButtonData.NEXT_FORWARD));
        next(robot);
        clickOnDecisionPage(robot, "#decisionCorrect");
        await().atMost(WAIT).until(() -> robot.lookup("#correctedPayload").queryAs(TextArea.class).isVisible());
    }

    /** The node lies wholly in its window's scene, and no scroll pane has it out of view. */
    private static void assertInView(FxRobot robot, Node node) {
        Bounds at = node.localToScene(node.getBoundsInLocal());
        Scene scene = node.getScene();
        assertThat(at.getMinX()).as("%s left", node.getId()).isGreaterThanOrEqualTo(0);
        assertThat(at.getMinY()).as("%s top", node.getId()).isGreaterThanOrEqualTo(0);
        assertThat(at.getMaxX()).as("%s right", node.getId()).isLessThanOrEqualTo(scene.getWidth());
        assertThat(at.getMaxY()).as("%s bottom", node.getId()).isLessThanOrEqualTo(scene.getHeight());
        robot.lookup("#decisionScroll").tryQuery().ifPresent(scroll -> assertThat(WizardClicks.scrolled(
                (ScrollPane) scroll, node)).as("%s is in the scrolled part", node.getId()).isFalse());
    }

    @Test
    void inAConsoleOf1280x800_everyStepShowsItsButton_andTheCorrectionStepItsReasonAndActWithoutScrolling(
            FxRobot robot) throws Exception {
        WizardItem item = refusedCharge(new OperationId("fix-small", "charge", 0));
        toTheEditor(robot, item, fixture.consoleOnTheSmallestScreen());
        robot.interact(() -> { });

        assertInView(robot, robot.lookup("#decisionReason").query());
        assertInView(robot, robot.lookup("#decisionOperator").query());
        assertInView(robot, issueButton(robot));
        assertThat(robot.lookup("#correctedPayload").queryAs(TextArea.class).getHeight()).isGreaterThanOrEqualTo(150);
        robot.clickOn("#decisionReason").write("amount was sent as text");
        assertThat(robot.lookup("#decisionScroll").queryAs(ScrollPane.class).getVvalue()).isZero();
    }

    private static Button issueButton(FxRobot robot) {
        return button(robot, ButtonBar.ButtonData.NEXT_FORWARD);
    }

    /** Replaces the editor's text as an operator does: select all, then type. */
    private static void typePayload(FxRobot robot, String payload) {
        reveal(robot, robot.lookup("#correctedPayload").query());
        robot.clickOn("#correctedPayload").press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL);
        robot.write(payload);
    }

    private static long calls(String idempotencyKey) {
        return ns.jdbc().queryLong("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key = ?", idempotencyKey);
    }

    @Test
    void invalidJson_blocksTheCorrectionWithOneLineSayingWhatWhereAndWhatIsExpected(FxRobot robot) {
        WizardItem item = refusedCharge(new OperationId("fix-invalid", "charge", 0));
        toTheEditor(robot, item);
        clickOnDecisionPage(robot, "#decisionReason");
        robot.write("amount was sent as text");

        typePayload(robot, "{\"amount\": 12.5,");

        await().atMost(WAIT).until(() -> robot.lookup("#payloadProblem").queryAs(Label.class).isVisible());
        assertThat(text(robot, "#payloadProblem")).startsWith("the corrected payload is not JSON: ")
                .contains(" at line 1, column ", "expected: one JSON object of at most").doesNotContain("Source");
        assertThat(issueButton(robot).isDisabled()).isTrue();

        typePayload(robot, "[1,2]");
        await().atMost(WAIT).until(() -> text(robot, "#payloadProblem").contains("must be a JSON object"));
        assertThat(issueButton(robot).isDisabled()).isTrue();

        typePayload(robot, "{\"amount\":12.5}");
        await().atMost(WAIT).until(() -> !robot.lookup("#payloadProblem").queryAs(Label.class).isVisible());
        assertThat(issueButton(robot).isDisabled()).isFalse();
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM operations WHERE run_id = 'fix-invalid'")).isEqualTo(1);
    }

    @Test
    void theCorrectedPayloadRunsOnceUnderTheNewKey_andTheMaskedCardNumberReachesTheToolAsStored(FxRobot robot)
            throws Exception {
        OperationId original = new OperationId("fix-amount", "charge", 0);
        OperationId correction = new OperationId("fix-amount", "charge", 1);
        WizardItem item = refusedCharge(original);
        long originalCalls = calls(original.idempotencyKey());
        toTheEditor(robot, item);

        assertThat(robot.lookup("#originalPayload").queryAs(TextArea.class).getText())
                .contains("\"card_number\" : \"" + Redactor.MASK + "\"").doesNotContain(CARD);
        assertThat(robot.lookup("#correctedPayload").queryAs(TextArea.class).getText()).contains(Redactor.MASK);
        assertThat(robot.lookup("#decisionRedrive").queryAs(RadioButton.class).isDisabled()).isFalse();
        clickOnDecisionPage(robot, "#decisionReason");
        robot.write("amount was sent as text");
        typePayload(robot, "{\"amount\":12.5,\"currency\":\"EUR\",\"card_number\":\"" + Redactor.MASK + "\"}");

        await().atMost(WAIT).until(() -> issueButton(robot).getText().equals("Redrive corrected payload as attempt 1"));
        assertThat(text(robot, "#payloadChanges")).isEqualTo("changed /amount: \"12.50 EUR\" → 12.5");
        assertThat(text(robot, "#decisionPlan")).contains("new operation " + correction.value())
                .contains("idempotency key " + correction.idempotencyKey()).contains("schema version 1")
                .contains(original.value() + " never runs again");
        assertThat(Truncations.under((Parent) robot.lookup("#decisionScroll").queryAs(ScrollPane.class).getContent())).isEmpty();
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));
        assertThat(text(robot, "#itemOutcome")).isEqualTo("Correction " + correction.value()
                + ": Succeeded: attempt 1 ran once, with idempotency key " + correction.idempotencyKey()
                + "; the tool counts one effect");
        assertThat(ns.jdbc().query("SELECT http_status || ' ' || (body->>'amount') || ' ' || (body->>'card_number') "
                        + "FROM demo_tool_calls WHERE idempotency_key = ?", row -> row.getString(1),
                correction.idempotencyKey())).containsExactly("200 12.5 " + CARD);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM demo_tool_calls WHERE body::text LIKE ?", "%" + Redactor.MASK + "%"))
                .isZero();
        assertThat(calls(original.idempotencyKey())).isEqualTo(originalCalls);
        assertThat(ns.jdbc().queryOne("SELECT decision_state || ' ' || superseded_by || ' ' || decided_by FROM dlq_entries "
                + "WHERE id = ?", row -> row.getString(1), item.dlqEntryId()))
                .contains("SUPERSEDED " + correction.value() + " ana");

        assertThat(robot.lookup("#newEntryLink").queryLabeled().getText())
                .isEqualTo("Show correction " + correction.value() + " in the console");
        robot.clickOn("#newEntryLink");

        await().atMost(WAIT).until(fixture::onlyTheStageShows);
        assertThat(model.entryToShow()).isEqualTo(new ReconciliationWizardViewModel.EntryRef(correction.value(), null));
        assertThat(model.decidedEntryIds()).containsExactly(item.dlqEntryId());
    }
}
