package dev.redrive.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.cli.CliRun;
import dev.redrive.console.dlq.DlqTableClicks;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.query.DlqRow;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.TableView;
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
import java.util.stream.StreamSupport;

import static dev.redrive.console.wizard.WizardClicks.WAIT;
import static dev.redrive.console.wizard.WizardClicks.button;
import static dev.redrive.console.wizard.WizardClicks.issue;
import static dev.redrive.console.wizard.WizardClicks.next;
import static dev.redrive.console.wizard.WizardClicks.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every result the console shows of a redrive is what {@code op show} prints of the same operation: the console is
 * wired as it is for an operator (a profile naming no look-up endpoints), the demo charge tool runs behind a real
 * worker, and the command line runs in-process on the same namespace.
 */
@ExtendWith(ApplicationExtension.class)
class ConsoleAgreesWithOpShowTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-op-show");
    private static final OperationId ONCE = new OperationId("agree-once", "charge", 0);
    private static final OperationId AGAIN = new OperationId("agree-again", "charge", 0);

    private static DemoChargeWorker worker;
    private Stage stage;

    @BeforeAll
    static void deadLetterTwoCharges() {
        worker = new DemoChargeWorker(ns, "op-show-worker", Duration.ofMinutes(5));
        deadLetter(ONCE, "forbidden:1");
        deadLetter(AGAIN, "forbidden");
    }

    @AfterAll
    static void stopWorker() {
        worker.close();
    }

    /** A charge the tool refuses (PERMISSION, never retried): once, or every time. */
    private static void deadLetter(OperationId id, String fault) {
        worker.client().dispatch(worker.client().newDispatch(id, "demo.charge", "1",
                "{\"amount\":10,\"fault\":\"" + fault + "\"}", "trace-" + id.runId(), "corr-" + id.runId(), null));
        await().atMost(WAIT).until(() -> ns.database().jdbc().queryLong("SELECT count(*) FROM dlq_entries "
                + "WHERE operation_id = ? AND decision_state = 'OPEN'", id.value()) == 1);
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
        onStage.show(stage, new RecordingDesktop());
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(() -> robot.listTargetWindows().stream().filter(w -> w != stage).toList()
                .forEach(javafx.stage.Window::hide));
    }

    /** Selects the operation's entry, opens the wizard from the detail pane and redrives it. */
    private static void redriveInTheWizard(FxRobot robot, OperationId id) {
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).until(() -> table.getItems().stream().anyMatch(row -> id.value().equals(row.operationId())));
        await().atMost(WAIT).until(() -> robot.lookup("#dlqTable .table-row-cell").tryQuery().isPresent());
        DlqTableClicks.clickOperation(robot, id.value());
        await().atMost(WAIT).until(() -> id.value().equals(text(robot, "#detailOperationId")));
        robot.clickOn("#openWizard");
        await().atMost(WAIT).until(() -> robot.lookup("#wizardOperation").tryQuery().map(Node::isVisible).orElse(false));
        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
        next(robot);
        robot.clickOn("#decisionReason").write("merchant permission restored");
        issue(robot, "Redrive 1 operation");
    }

    private static JsonNode opShow(String... args) {
        CliRun run = CliRun.in(ns, args);
        assertThat(run.exit()).as(run.err()).isZero();
        return TriageJson.parse(run.out());
    }

    /** The verification line of {@code op show}'s text: the same verdict and explanation as its JSON. */
    private static void textSaysTheSame(OperationId id, JsonNode verification) {
        assertThat(CliRun.in(ns, "op", "show", id.value()).out()).contains("verification "
                + verification.get("verdict").asText() + ": " + verification.get("explanation").asText());
    }

    @Test
    void aRedriveThatSucceededOnce_theWizardAndTheDetailPaneSayWhatOpShowSays(FxRobot robot) {
        redriveInTheWizard(robot, ONCE);
        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));

        JsonNode shown = opShow("op", "show", ONCE.value(), "--json");
        JsonNode verification = shown.get("verification");
        assertThat(verification.get("verdict").asText()).isEqualTo("SUCCEEDED_ONCE");
        assertThat(verification.get("effects").asLong()).isEqualTo(1);
        assertThat(text(robot, "#itemOutcome")).isEqualTo("Succeeded: attempt " + verification.get("to_attempt").asInt()
                + " ran once, with idempotency key " + verification.get("idempotency_key").asText()
                + "; the tool counts one effect");
        textSaysTheSame(ONCE, verification);

        robot.clickOn(button(robot, ButtonBar.ButtonData.FINISH));
        JsonNode entry = shown.get("dlq_entries").get(0);
        await().atMost(WAIT).until(() -> text(robot, "#detailStatus").equals(shown.get("status").asText()
                + " · attempt " + shown.get("attempt").asInt()));
        assertThat(text(robot, "#detailStatus")).isEqualTo("SUCCEEDED · attempt 2");
        assertThat(text(robot, "#detailDecision")).startsWith(entry.get("decision_state").asText() + " by "
                + entry.get("decided_by").asText() + " at ").endsWith(" · " + entry.get("decision_reason").asText());
    }

    @Test
    void aRedriveThatFailedAgainIntoANewEntry_theWizardAndTheDetailPaneSayWhatOpShowSays(FxRobot robot) {
        redriveInTheWizard(robot, AGAIN);
        await().atMost(WAIT).until(() -> text(robot, "#result-failed").equals("1 failed"));

        JsonNode shown = opShow("op", "show", AGAIN.value(), "--json");
        JsonNode verification = shown.get("verification");
        assertThat(verification.get("verdict").asText()).isEqualTo("FAILED");
        JsonNode attempts = shown.get("attempts");
        JsonNode last = attempts.get(attempts.size() - 1);
        JsonNode open = StreamSupport.stream(shown.get("dlq_entries").spliterator(), false)
                .filter(e -> e.get("decision_state").asText().equals("OPEN")).findFirst().orElseThrow();
        assertThat(last.get("attempt").asInt()).isEqualTo(verification.get("to_attempt").asInt());
        assertThat(text(robot, "#itemOutcome")).isEqualTo("Failed again: attempt " + verification.get("to_attempt").asInt()
                + " ended " + last.get("error_class").asText() + " (" + last.get("error_message").asText()
                + "); the operation is back in the DLQ as entry " + open.get("id").asLong());
        textSaysTheSame(AGAIN, verification);

        robot.clickOn("#newEntryLink");
        await().atMost(WAIT).until(() -> text(robot, "#detailStatus").equals(shown.get("status").asText()
                + " · attempt " + shown.get("attempt").asInt()));
        assertThat(text(robot, "#detailStatus")).isEqualTo("DEAD_LETTERED · attempt 2");
        JsonNode entry = opShow("op", "show", "--entry", open.get("id").asText(), "--json");
        assertThat(entry.get("decision_state").asText()).isEqualTo("OPEN");
        assertThat(text(robot, "#detailDecision")).isEqualTo("OPEN · waiting for a decision");
        assertThat(text(robot, "#detailLastError")).isEqualTo(entry.get("error_class").asText()
                + (entry.get("error_code").isNull() ? "" : " " + entry.get("error_code").asText()) + ": "
                + entry.get("error_message").asText());
    }
}
