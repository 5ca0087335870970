package dev.redrive.console;

import dev.redrive.console.dlq.DlqTableClicks;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.MessageDeadLetters;
import dev.redrive.triage.detail.AuditEntry;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.worker.Worker;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Duration;
import java.util.prefs.Preferences;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator meets a dispatch the worker dead-lettered as itself (no tool) next to an operation's entry: selecting it
 * shows that entry, not the operation shown before, and it is discarded from the detail pane by its entry id.
 */
@ExtendWith(ApplicationExtension.class)
class EntryWithoutOperationScreenTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Preferences PREFERENCES = Preferences.userRoot().node("dev/redrive/console-test-entry-alone");
    private static final String SECRET = "hunter2-never-on-screen";

    private static String operationId;
    private static long malformed;
    private ScreensOnStage screens;

    @BeforeAll
    static void anOperationsEntry_andAMalformedDispatchAWorkerDeadLettered() {
        operationId = new DeadLetterFixture(ns.database()).deadLettered("run-screen", "charge").create().operationId();
        MessageDeadLetters letters = new MessageDeadLetters(ns);
        Worker worker = letters.startWorker(new MessageDeadLetters.AnswersAtOnce("test.ok"));
        try {
            malformed = letters.awaitEntry(letters.publishWithoutTool(new OperationId("legacy", "charge", 0),
                    "{\"amount\":5,\"password\":\"" + SECRET + "\"}", "trace-legacy"));
        } finally {
            worker.shutdown().join();
        }
    }

    @AfterAll
    static void forgetPreferences() throws java.util.prefs.BackingStoreException {
        PREFERENCES.removeNode();
    }

    @Start
    void start(Stage stage) {
        screens = ScreensOnStage.show(stage, ns, PREFERENCES, new RecordingDesktop());
    }

    @AfterEach
    void close() {
        screens.close();
    }

    @Test
    void selectTheEntryAfterAnOperation_seeItsCodeAndMaskedRawMessage_thenDiscardItWithAReason(FxRobot robot) {
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).until(() -> table.getItems().size() == 2);
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
        assertThat(robot.lookup("#detailClaimedOperation").queryAs(Label.class).getText()).startsWith("legacy:charge:0");
        assertThat(robot.lookup("#rawMessage").queryAs(TextArea.class).getText()).contains("[redacted]")
                .doesNotContain(SECRET);
        assertThat(robot.lookup("#attemptTimeline").query().isVisible()).isFalse();
        assertThat(robot.lookup("#openWizard").queryButton().isDisabled()).isTrue();

        robot.clickOn("More");
        robot.clickOn("Discard…");
        robot.clickOn("#decisionDialogReason").write("legacy publisher fixed");
        robot.clickOn(robot.lookup(".dialog-pane .button")
                .match((Button button) -> "Discard".equals(button.getText())).queryButton());

        await().atMost(WAIT).until(() -> robot.lookup("Recorded").tryQuery().isPresent());
        robot.clickOn("OK");
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
}
