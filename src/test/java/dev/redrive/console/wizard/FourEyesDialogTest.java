package dev.redrive.console.wizard;

import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.request.FourEyesPolicy;
import dev.redrive.triage.request.PolicyStore;
import javafx.application.Platform;
import javafx.scene.control.Button;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.NodeQueryUtils;
import org.testfx.framework.junit5.ApplicationExtension;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * More ▸ Discard under a four-eyes policy, clicked as an operator would: the dialog records a request and says so;
 * the entry stays open until a second operator approves it.
 */
@ExtendWith(ApplicationExtension.class)
class FourEyesDialogTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static Created entry;
    @RegisterExtension
    final WizardStage fixture = new WizardStage(900, 700);

    @BeforeAll
    static void seed() {
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        entry = fixture.deadLettered("run-four-eyes-dialog", "charge").create();
        new PolicyStore(ns.database()).write(FourEyesPolicy.of(true, null, false, List.of("demo.charge"), null), "owner",
                Instant.now());
    }

    @Test
    void aCoveredDiscardFromTheDialogBecomesARequest_andTheEntryStaysOpen(FxRobot robot) {
        WizardBackend backend = WizardStage.backend(ns,
                HttpSideEffectLookup.forTool("demo.charge", URI.create("http://127.0.0.1:9/none/")));
        DecisionDialogs dialogs = new DecisionDialogs(backend, fixture.executor());
        Platform.runLater(() -> dialogs.decide(fixture.stage(), DecisionKind.DISCARD,
                new WizardItem(entry.operationId(), entry.dlqEntryId(), 0), "ana", result -> { }));

        // The dialog's nodes exist, and say they are visible, before its window shows: a click needs what TestFX
        // calls visible, a node whose window shows.
        await().atMost(WAIT).until(() -> robot.lookup("#decisionDialogReason").match(NodeQueryUtils.isVisible())
                .tryQuery().isPresent());
        robot.clickOn("#decisionDialogReason").write("duplicate of order 1042");
        robot.clickOn(robot.lookup(".dialog-pane .button")
                .match((Button button) -> "Discard".equals(button.getText())).queryButton());

        await().atMost(WAIT).until(() -> robot.lookup("Waiting for a second operator's approval").tryQuery().isPresent());
        assertThat(ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), entry.dlqEntryId())).contains("OPEN");
        assertThat(ns.database().jdbc().queryOne(
                "SELECT kind || ' ' || state || ' ' || requested_by || ' ' || reason FROM decision_requests",
                row -> row.getString(1))).contains("DISCARD PENDING ana duplicate of order 1042");
        robot.clickOn("OK");
    }
}
