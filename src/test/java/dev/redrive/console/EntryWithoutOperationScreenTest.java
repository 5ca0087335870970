package dev.redrive.console;

import dev.redrive.console.dlq.DlqTableClicks;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.MessageDeadLetters;
import dev.redrive.triage.detail.AuditEntry;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.worker.Worker;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.RadioButton;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;


import static dev.redrive.console.ScreensFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator meets a dispatch the worker dead-lettered as itself (no tool) next to an operation's entry: selecting it
 * shows that entry, not the operation shown before, and it is discarded from the detail pane by its entry id.
 */
@ExtendWith(ApplicationExtension.class)
class EntryWithoutOperationScreenTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-entry-alone");
    private static final String SECRET = "hunter2-never-on-screen";

    private static String operationId;
    private static long malformed;
    private static long decidedInWizard;

    @BeforeAll
    static void anOperationsEntry_andAMalformedDispatchAWorkerDeadLettered() {
        operationId = new DeadLetterFixture(ns.database()).deadLettered("run-screen", "charge").create().operationId();
        MessageDeadLetters letters = new MessageDeadLetters(ns);
        Worker worker = letters.startWorker(new AnswersAtOnce("test.ok"));
        try {
            malformed = letters.awaitEntry(letters.publishWithoutTool(new OperationId("legacy", "charge", 0),
                    "{\"amount\":5,\"password\":\"" + SECRET + "\"}", "trace-legacy"));
            decidedInWizard = letters.awaitEntry(letters.publishWithoutTool(new OperationId("legacy", "refund", 0),
                    "{\"amount\":7}", "trace-legacy-refund"));
        } finally {
            worker.shutdown().join();
        }
    }

    @Start
    void start(Stage stage) {
        onStage.show(stage, new RecordingDesktop());
    }

    @Test
    void selectTheEntryAfterAnOperation_seeItsCodeAndMaskedRawMessage_thenDiscardItWithAReason(FxRobot robot) {
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).until(() -> table.getItems().size() == 3);
        await().atMost(WAIT).until(() -> robot.lookup("#dlqTable .table-row-cell").tryQuery().isPresent());
        Label title = robot.lookup("#detailOperationId").queryAs(Label.class);
        DlqTableClicks.clickOperation(robot, operationId);
        await().atMost(WAIT).until(() -> operationId.equals(title.getText()));

        assertThat(robot.lookup("no operation · names legacy:charge:0").tryQuery())
                .as("the list does not pass the entry off as the operation it names").isPresent();
        DlqTableClicks.clickEntry(robot, malformed);

        await().atMost(WAIT).until(() -> ("DLQ entry " + malformed).equals(title.getText()));
        assertThat(robot.lookup("#detailLastError").queryAs(Label.class).getText())
                .isEqualTo("INVALID_INPUT invalid_envelope: tool is missing");
        assertThat(robot.lookup("#detailNoOperation").queryAs(Label.class).isVisible()).isTrue();
        assertThat(robot.lookup("#detailNoOperation").queryAs(Label.class).getText())
                .startsWith("No operation: the worker could not take this message as a dispatch, so nothing ran");
        assertThat(robot.lookup("#detailClaimedOperation").queryAs(Label.class).getText()).startsWith("legacy:charge:0");
        assertThat(robot.lookup("#rawMessage").queryAs(TextArea.class).getText()).contains("[redacted]")
                .doesNotContain(SECRET);
        assertThat(robot.lookup("#attemptTimeline").query().isVisible()).isFalse();
        assertThat(robot.lookup("#openWizard").queryButton().isDisabled())
                .as("the wizard takes any open entry, as a double-click in the list does").isFalse();

        DetailDiscard.open(robot);
        DetailDiscard.confirm(robot, "legacy publisher fixed", "Discard DLQ entry " + malformed, WAIT);
        Label decision = robot.lookup("#detailDecision").queryAs(Label.class);
        await().atMost(WAIT).untilAsserted(() -> assertThat(decision.getText()).startsWith("DISCARDED by ")
                .endsWith(" · legacy publisher fixed"));
        ListView<AuditEntry> audit = robot.lookup("#auditList").queryListView();
        assertThat(audit.getItems()).singleElement().satisfies(line -> assertThat(line.action() + " " + line.reason())
                .isEqualTo("DISCARD legacy publisher fixed"));
        assertThat(ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), malformed)).contains("DISCARDED");
        assertThat(ns.database().jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?",
                row -> row.getString(1), operationId)).contains("DEAD_LETTERED");
    }

    @Test
    void doubleClickTheEntry_theWizardSaysWhyNoRedrive_andDiscardsItByItsEntryId(FxRobot robot) {
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).until(() -> table.getItems().size() == 3);
        await().atMost(WAIT).until(() -> robot.lookup("#dlqTable .table-row-cell").tryQuery().isPresent());
        long dispatched = ns.redis().sync().xlen(ns.redis().keys().dispatch());

        Label title = robot.lookup("#detailOperationId").queryAs(Label.class);
        DlqTableClicks.clickEntry(robot, decidedInWizard);
        await().atMost(WAIT).until(() -> ("DLQ entry " + decidedInWizard).equals(title.getText()));
        DlqTableClicks.doubleClickEntry(robot, decidedInWizard);

        await().atMost(WAIT).until(() -> robot.lookup("#wizardOperation").tryQuery()
                .map(node -> ((Label) node).getText().startsWith("DLQ entry " + decidedInWizard)).orElse(false));
        assertThat(robot.lookup("#wizardOperation").queryAs(Label.class).getText())
                .isEqualTo("DLQ entry " + decidedInWizard + " · no operation of its own · names legacy:refund:0");
        next(robot);
        await().atMost(WAIT).until(() -> robot.lookup("#wizardReconcileTable").tryQuery().map(n -> n.isVisible()).orElse(false));
        next(robot);
        await().atMost(WAIT).until(() -> robot.lookup("#check-own_operation").tryQuery().isPresent());
        assertThat(robot.lookup("#checkSummary").queryAs(Label.class).getText())
                .isEqualTo("1 of 2 checks pass; blocked by: no operation of its own");
        assertThat(robot.lookup("#check-own_operation").queryAs(Label.class).getText())
                .isEqualTo("✘ entry has an operation of its own: no operation of its own");
        assertThat(robot.lookup("#blockedReason").queryAs(Label.class).getText()).isEqualTo("No redrive: no operation "
                + "of its own: nothing was recorded to run again. You can still decide: resolve, discard.");

        robot.clickOn("#remedy-discard");
        await().atMost(WAIT).until(() -> robot.lookup("#decisionDiscard").tryQuery().map(n -> n.isVisible()).orElse(false));
        assertThat(robot.lookup("#decisionDiscard").queryAs(RadioButton.class).isSelected()).isTrue();
        assertThat(robot.lookup("#decisionResolve").queryAs(RadioButton.class).isDisabled()).isFalse();
        assertThat(robot.lookup("#decisionRedrive").queryAs(RadioButton.class).isDisabled()).isTrue();
        assertThat(robot.lookup("#redriveNote").queryAs(Label.class).getText())
                .isEqualTo("no operation of its own: nothing was recorded to run again");
        robot.clickOn("#decisionReason").write("refund re-issued by hand");
        Button act = wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD);
        await().atMost(WAIT).until(() -> act.getText().equals("Discard 1 entry") && !act.isDisabled());
        robot.clickOn(act);

        await().atMost(WAIT).until(() -> robot.lookup("#result-succeeded").tryQuery()
                .map(n -> ((Label) n).getText().equals("1 succeeded")).orElse(false));
        assertThat(ns.database().jdbc().queryOne("SELECT decision_state || ' ' || decision_reason FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), decidedInWizard)).contains("DISCARDED refund re-issued by hand");
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(dispatched);
        robot.clickOn(wizardButton(robot, ButtonBar.ButtonData.FINISH));
        await().atMost(WAIT).untilAsserted(() -> assertThat(table.getItems()).filteredOn(row -> row.id() == decidedInWizard)
                .singleElement().satisfies(row -> assertThat(row.decisionState()).hasToString("DISCARDED")));
    }

    private static void next(FxRobot robot) {
        Button next = wizardButton(robot, ButtonBar.ButtonData.NEXT_FORWARD);
        await().atMost(WAIT).until(() -> !next.isDisabled());
        robot.clickOn(next);
    }

    private static Button wizardButton(FxRobot robot, ButtonBar.ButtonData data) {
        return robot.lookup(".button").queryAllAs(Button.class).stream()
                .filter(button -> ButtonBar.getButtonData(button) == data && button.isVisible()).findFirst().orElseThrow();
    }
}
