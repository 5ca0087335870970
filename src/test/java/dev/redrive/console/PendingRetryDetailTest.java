package dev.redrive.console;

import dev.redrive.console.dlq.DlqTableClicks;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.query.DlqRow;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
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
 * An operation that was redriven and now waits for its retry has no open entry, yet the operator who knows the retry
 * is wrong stops it from the detail pane: Discard cancels the retry (as {@code redrive discard} does), audited, and
 * the wizard, which redrives, stays closed to it.
 */
@ExtendWith(ApplicationExtension.class)
class PendingRetryDetailTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-pending-retry");

    private static String operationId;
    private static long entryId;
    private static int attempt;

    /** The state a redrive whose new attempt failed transiently leaves: entry REDRIVEN, operation waiting for attempt 2. */
    @BeforeAll
    static void aRedrivenOperationWaitingForItsRetry() {
        DeadLetterFixture.Created created = new DeadLetterFixture(ns.database()).deadLettered("run-retry", "charge")
                .create();
        operationId = created.operationId();
        entryId = created.dlqEntryId();
        attempt = created.attempt();
        ns.database().jdbc().update("UPDATE dlq_entries SET decision_state = 'REDRIVEN', decided_by = 'bob', "
                + "decided_at = now(), decision_reason = 'ledger is back', version = version + 1 WHERE id = ?", entryId);
        ns.database().jdbc().update("UPDATE operations SET status = 'RETRY_SCHEDULED', "
                + "next_eligible_at = now() + interval '1 hour' WHERE operation_id = ?", operationId);
    }

    @Start
    void start(Stage stage) {
        onStage.show(stage, new RecordingDesktop());
    }

    @Test
    void discardFromTheDetail_cancelsTheRetry(FxRobot robot) {
        TableView<DlqRow> table = DlqTableClicks.loadedTable(robot, WAIT);
        DlqTableClicks.clickEntry(robot, entryId);
        Label status = robot.lookup("#detailStatus").queryAs(Label.class);
        await().atMost(WAIT).until(() -> status.getText().startsWith("RETRY_SCHEDULED"));
        assertThat(robot.lookup("#openWizard").queryButton().isDisabled()).as("nothing to redrive").isTrue();

        DetailDiscard.open(robot);
        await().atMost(WAIT).until(() -> robot.lookup("#decisionDialogReason").tryQuery().isPresent());
        assertThat(robot.lookup("Cancel the retry this operation waits for and give it up. It will never run again.")
                .tryQuery()).isPresent();
        DetailDiscard.confirm(robot, "customer cancelled the order", "Discard " + operationId, WAIT);
        await().atMost(WAIT).until(() -> status.getText().startsWith("DISCARDED"));
        assertThat(ns.database().jdbc().queryOne("SELECT action || ' ' || reason || ' ' "
                        + "|| (details->'cancelled_retry'->>'attempt') FROM audit_log WHERE operation_id = ? "
                        + "AND action = 'DISCARD'", row -> row.getString(1), operationId))
                .contains("DISCARD customer cancelled the order " + attempt);
        assertThat(ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), entryId)).as("the entry's own decision stands").contains("REDRIVEN");
    }
}
