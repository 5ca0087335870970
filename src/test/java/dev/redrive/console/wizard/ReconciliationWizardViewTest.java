package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.main.Theme;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.HttpSideEffectLookup;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.HttpTool;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
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

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The wizard against a namespace with the demo tools and a real worker running. */
@ExtendWith(ApplicationExtension.class)
class ReconciliationWizardViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static DemoToolServer tools;
    private static Worker worker;
    private static WorkerClient client;
    private static WizardBackend backend;

    private final UiExecutor executor = UiExecutor.forFx(2);
    private Stage stage;
    private ReconciliationWizardView view;

    @BeforeAll
    static void startWorker() {
        tools = DemoToolServer.start(ns.database());
        HttpTool charge = HttpTool.builder("demo.charge", "1", tools.chargeEndpoint())
                .lookupEndpoint(tools.lookupEndpoint()).requestTimeout(Duration.ofSeconds(2)).build();
        worker = Worker.builder(ns.database(), ns.redis()).tool(charge).consumerName("wizard-worker").concurrency(2)
                .leaseDuration(Duration.ofSeconds(3)).claimInterval(Duration.ofMillis(200)).build().start();
        client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        backend = new TriageWizardBackend(new Decisions(ns.database(), client, Clock.systemUTC()),
                new OperationDetailsLoader(ns.database()), HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint()));
    }

    @AfterAll
    static void stopWorker() {
        worker.shutdown().join();
        tools.close();
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
        Theme.apply(false);
        stage.setScene(new Scene(new StackPane(), 200, 100));
        stage.show();
    }

    @AfterEach
    void closeWizard(FxRobot robot) {
        robot.interact(() -> robot.listTargetWindows().stream().filter(w -> w != stage).toList()
                .forEach(javafx.stage.Window::hide));
        executor.close();
    }

    /** Dispatches a charge the demo tool refuses with 403 as asked, and waits until the worker dead-letters it. */
    private static WizardItem deadLettered(String run, String fault) {
        OperationId id = new OperationId(run, "charge", 0);
        client.dispatch(client.newDispatch(id, "demo.charge", "1", "{\"amount\":10,\"fault\":\"" + fault + "\"}",
                "trace-" + run, "corr-" + run, null));
        return await().atMost(WAIT).until(() -> ns.database().jdbc().queryOne(
                "SELECT id, version FROM dlq_entries WHERE operation_id = ? AND decision_state = 'OPEN'",
                row -> new WizardItem(id.value(), row.getLong(1), row.getInt(2)), id.value()), Optional::isPresent).get();
    }

    private void open(FxRobot robot, WizardItem item) {
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, executor, List.of(item), "ana");
        robot.interact(() -> view = ReconciliationWizardView.load(model, stage, Theme.stylesheet()));
        Platform.runLater(view::showAndWait);
        await().atMost(WAIT).until(() -> robot.lookup("#wizardOperation").tryQuery().map(Node::isVisible).orElse(false));
    }

    private static Button button(FxRobot robot, ButtonBar.ButtonData data) {
        return robot.lookup(".button").queryAllAs(Button.class).stream()
                .filter(button -> ButtonBar.getButtonData(button) == data && button.isVisible()).findFirst().orElseThrow();
    }

    private static void next(FxRobot robot) {
        await().atMost(WAIT).until(() -> !button(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled());
        robot.clickOn(button(robot, ButtonBar.ButtonData.NEXT_FORWARD));
    }

    private static String text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    private static long dispatched() {
        return ns.redis().sync().xlen(ns.redis().keys().dispatch());
    }

    @Test
    void aRedriveThatPassesEveryCheckRunsOnceAtTheWorker(FxRobot robot) {
        WizardItem item = deadLettered("wiz-pass", "forbidden:1");
        String key = new OperationId("wiz-pass", "charge", 0).idempotencyKey();
        open(robot, item);

        await().atMost(WAIT).until(() -> text(robot, "#evidenceBadge").equals("NONE"));
        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("1 pass"));
        next(robot);
        robot.clickOn("#decisionReason").write("merchant permission restored");
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#resultSummary").equals("1 done"));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            robot.clickOn("#verifyRedrive");
            return text(robot, "#verification").contains("succeeded exactly once: attempt 2 with idempotency key " + key);
        });
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key = ?", key))
                .isEqualTo(1);
        assertThat(ns.database().jdbc().queryLong("SELECT attempt FROM operations WHERE operation_id = ?",
                item.operationId())).isEqualTo(2);
    }

    @Test
    void aCancelledRunBlocksAtThePreconditionsWithItsReasonAndPublishesNothing(FxRobot robot) {
        WizardItem item = deadLettered("wiz-cancelled", "forbidden");
        ns.database().jdbc().update("UPDATE runs SET status = 'CANCELLED', status_reason = 'owner cancelled' WHERE run_id = 'wiz-cancelled'");
        long before = dispatched();
        open(robot, item);

        next(robot);
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("0 pass · 1 blocked (run still active: 1)"));
        assertThat(button(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled()).isTrue();
        assertThat(text(robot, "#blockedReason")).contains("CANCELLED");
        assertThat(robot.lookup("#check-run_active").queryAs(Label.class).getText()).startsWith("✘");
        assertThat(dispatched()).isEqualTo(before);
    }
}
