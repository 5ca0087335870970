package dev.redrive.console.wizard;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import javafx.scene.Node;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.Spinner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static dev.redrive.console.wizard.WizardClicks.WAIT;
import static dev.redrive.console.wizard.WizardClicks.button;
import static dev.redrive.console.wizard.WizardClicks.clickOnDecisionPage;
import static dev.redrive.console.wizard.WizardClicks.issue;
import static dev.redrive.console.wizard.WizardClicks.next;
import static dev.redrive.console.wizard.WizardClicks.noPrevious;
import static dev.redrive.console.wizard.WizardClicks.reveal;
import static dev.redrive.console.wizard.WizardClicks.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator stops a paced batch redrive in the wizard, through a real worker and the demo charge tool. At one
 * redrive a second, ten entries take nine seconds of pauses after the first: Stop is pressed once the first is
 * recorded, so it always lands long before the end, however slow the machine.
 */
@ExtendWith(ApplicationExtension.class)
class StopPacedBatchWizardTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final WizardWorker charging = new WizardWorker(ns, "stop-wizard");
    private static final int ENTRIES = 10;
    private static final Pattern STOPPED = Pattern.compile("Stopped after (\\d+) of " + ENTRIES
            + " redrives: (\\d+) not reached, left open\\.");


    @RegisterExtension
    final WizardStage fixture = new WizardStage();

    /** Charges the tool refuses once (PERMISSION, not retried), each waited for until the worker dead-letters it. */
    private static List<WizardItem> deadLettered(String run) {
        List<OperationId> ids = IntStream.range(0, ENTRIES).mapToObj(i -> new OperationId(run, "charge-" + i, 0)).toList();
        ids.forEach(id -> charging.client().dispatch(charging.client().newDispatch(id, "demo.charge", "1",
                "{\"amount\":10,\"fault\":\"forbidden:1\"}", "trace-" + run, "corr-" + run, null)));
        await().atMost(WAIT).until(() -> openEntries(run) == ENTRIES);
        return ns.jdbc().query("SELECT operation_id, id, version FROM dlq_entries WHERE run_id = ? ORDER BY operation_id",
                row -> new WizardItem(row.getString(1), row.getLong(2), row.getInt(3)), run);
    }

    private static long openEntries(String run) {
        return ns.jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE run_id = ? AND decision_state = 'OPEN'", run);
    }

    @Test
    void stopDuringAPacedBatchRedrive_leavesTheEntriesNotReachedOpen_andSaysHowManyWereDone(FxRobot robot) {
        List<WizardItem> items = deadLettered("wiz-stop");
        fixture.open(charging.backend(), items, "#wizardEvidenceTable");
        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals(ENTRIES + " of " + ENTRIES
                + " entries pass every check"));
        next(robot);

        Spinner<?> rate = robot.lookup(".spinner").queryAs(Spinner.class);
        reveal(robot, rate);
        for (int clicks = 0; clicks < 10 && !Integer.valueOf(1).equals(rate.getValue()); clicks++) {
            robot.clickOn(robot.from(rate).lookup(".decrement-arrow-button").<Node>query());
        }
        assertThat(rate.getValue()).isEqualTo(1);
        assertThat(text(robot, "#decisionPlan")).contains("for each of " + ENTRIES + " operations and dispatches each "
                + "one's next attempt under that operation's same idempotency key, 1 per second (about 10 s).");
        clickOnDecisionPage(robot, "#decisionReason");
        robot.write("permission restored for the merchant");
        issue(robot, "Redrive " + ENTRIES + " operations");

        await().atMost(WAIT).until(() -> robot.lookup("#stopBatch").tryQuery().map(Node::isVisible).orElse(false)
                && ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands") >= 1);
        assertThat(robot.lookup("#stopBatch").queryButton().getText()).isEqualTo("Stop");
        robot.clickOn("#stopBatch");

        // The progress line soon tells of the worker being followed; the note of the stop stays on the page.
        await().atMost(WAIT).until(() -> robot.lookup("#batchStopped").tryQuery().map(Node::isVisible).orElse(false));
        Matcher stopped = STOPPED.matcher(text(robot, "#batchStopped"));
        assertThat(stopped.matches()).as(text(robot, "#batchStopped")).isTrue();
        int done = Integer.parseInt(stopped.group(1));
        assertThat(done).as("Stop lands long before the end").isBetween(1, ENTRIES - 2);
        assertThat(stopped.group(2)).isEqualTo(String.valueOf(ENTRIES - done));
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands")).isEqualTo(done);
        assertThat(openEntries("wiz-stop")).as("the entries not reached stay open").isEqualTo(ENTRIES - done);
        assertThat(noPrevious(robot)).isTrue();
        assertThat(robot.lookup("#stopBatch").tryQuery().map(Node::isVisible).orElse(false)).as("Stop goes away").isFalse();

        // The redrives that were issued run at the worker; the result page follows them, and nothing else is issued.
        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals(done + " succeeded"));
        assertThat(text(robot, "#result-waiting")).isEqualTo("0 waiting");
        assertThat(text(robot, "#batchStopped")).isEqualTo(stopped.group());
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands")).isEqualTo(done);
        assertThat(openEntries("wiz-stop")).isEqualTo(ENTRIES - done);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM operations WHERE run_id = 'wiz-stop' AND attempt = 1 "
                + "AND status = 'DEAD_LETTERED'")).isEqualTo(ENTRIES - done);
        assertThat(button(robot, ButtonBar.ButtonData.FINISH).getText()).isEqualTo("Close");
        robot.clickOn(button(robot, ButtonBar.ButtonData.FINISH));
        await().atMost(WAIT).until(fixture::onlyTheStageShows);
    }
}
