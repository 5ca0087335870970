package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.main.Theme;
import dev.redrive.console.ui.Truncations;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.identity.OperationId;
import dev.redrive.store.approval.ApprovalStore;
import dev.redrive.store.tool.ToolSchemaStore;
import dev.redrive.report.Redactor;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.ViewerLogin;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.HttpSideEffectLookup;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.HttpTool;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
    private static Decisions decisions;
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
        decisions = new Decisions(ns.database(), client, Clock.systemUTC());
        backend = new TriageWizardBackend(ns.database(), decisions,
                HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint()), Redactor.defaults());
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

    /** Dispatches a charge the demo tool fails as asked, and waits until the worker dead-letters it. */
    private static WizardItem deadLettered(String run, String fault) {
        return deadLettered(run, fault, null);
    }

    private static WizardItem deadLettered(String run, String fault, String approvalId) {
        return deadLettered(new OperationId(run, "charge", 0), fault, approvalId);
    }

    private static WizardItem deadLettered(OperationId id, String fault, String approvalId) {
        String run = id.runId();
        client.dispatch(client.newDispatch(id, "demo.charge", "1", "{\"amount\":10,\"fault\":\"" + fault + "\"}",
                "trace-" + run, "corr-" + run, approvalId));
        return await().atMost(WAIT).until(() -> ns.database().jdbc().queryOne(
                "SELECT id, version FROM dlq_entries WHERE operation_id = ? AND decision_state = 'OPEN'",
                row -> new WizardItem(id.value(), row.getLong(1), row.getInt(2)), id.value()), Optional::isPresent).get();
    }

    private void open(FxRobot robot, WizardItem item) {
        show(robot, List.of(item), "#wizardOperation");
    }

    private void show(FxRobot robot, List<WizardItem> items, String firstNode) {
        show(robot, backend, items, firstNode);
    }

    private void show(FxRobot robot, WizardBackend through, List<WizardItem> items, String firstNode) {
        show(robot, through, items, firstNode, stage);
    }

    private void show(FxRobot robot, WizardBackend through, List<WizardItem> items, String firstNode, Window owner) {
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(through, executor, items, "ana");
        robot.interact(() -> view = ReconciliationWizardView.load(model, owner, Theme.stylesheet()));
        Platform.runLater(view::showAndWait);
        await().atMost(WAIT).until(() -> robot.lookup(firstNode).tryQuery().map(Node::isVisible).orElse(false));
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

    private static long redriveCommands() {
        return ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands");
    }

    /** The title of one check on the preconditions page, e.g. "✘ tool schema unchanged". */
    private static String checkTitle(FxRobot robot, String key) {
        return robot.lookup("#check-" + key).queryAs(Label.class).getText();
    }

    /** The explanation shown under one check's title. */
    private static String checkExplanation(FxRobot robot, String key) {
        Node title = robot.lookup("#check-" + key).query();
        return ((Label) ((VBox) title.getParent()).getChildren().get(1)).getText();
    }

    private static boolean nextDisabled(FxRobot robot) {
        return button(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled();
    }

    /** The console maximised on the smallest screen it is made for (the headless screen is 1280x800, too). */
    @Test
    void theWizardOpensOverMostOfItsOwnerAndKeepsTheSizeTheOperatorGivesIt(FxRobot robot) throws Exception {
        WizardItem item = deadLettered("wiz-size", "forbidden");
        Stage console = WaitForAsyncUtils.asyncFx(() -> {
            Stage window = new Stage();
            window.setScene(new Scene(new StackPane()));
            window.setX(0);
            window.setY(0);
            window.setWidth(1280);
            window.setHeight(800);
            window.show();
            return window;
        }).get();
        show(robot, backend, List.of(item), "#wizardOperation", console);
        Stage wizard = (Stage) robot.listTargetWindows().stream().filter(window -> window != stage && window != console)
                .findFirst().orElseThrow();

        await().atMost(WAIT).until(() -> wizard.getScene().getWidth() == 896 && wizard.getScene().getHeight() == 560);
        assertThat(wizard.isResizable()).isTrue();
        await().atMost(WAIT).until(() -> text(robot, "#evidenceBadge").equals("NONE"));
        assertThat(Truncations.under(wizard.getScene().getRoot())).isEmpty();

        robot.interact(() -> {
            wizard.setX(40);
            wizard.setY(20);
            wizard.setWidth(1200);
            wizard.setHeight(760);
        });
        next(robot);
        await().atMost(WAIT).until(() -> robot.lookup("#wizardReconcileTable").tryQuery().isPresent());
        assertThat(robot.lookup("#wizardReconcileTable").queryTableView().getWidth()).isGreaterThan(1100);
        assertThat(Truncations.under(wizard.getScene().getRoot())).isEmpty();
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("1 pass"));

        assertThat(wizard.getScene().getWidth()).isEqualTo(1200);
        assertThat(wizard.getScene().getHeight()).isEqualTo(760);
        assertThat(robot.lookup("#checkList").queryAs(VBox.class).getWidth()).isGreaterThan(1100);
        assertThat(Truncations.under(wizard.getScene().getRoot())).isEmpty();
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
        String commandId = ns.database().jdbc().queryOne("SELECT command_id::text FROM redrive_commands WHERE operation_id = ?",
                row -> row.getString(1), item.operationId()).orElseThrow();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            robot.clickOn("#verifyRedrive");
            return text(robot, "#verification").contains("succeeded exactly once: attempt 2 with idempotency key " + key);
        });
        assertThat(robot.from(robot.lookup("#wizardResultTable").<Node>query()).lookup(".table-cell")
                .queryAllAs(TableCell.class)).extracting(TableCell::getText)
                .contains(commandId, "succeeded exactly once: attempt 2 with idempotency key " + key);
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
        long commands = redriveCommands();
        open(robot, item);

        next(robot);
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("0 pass · 1 blocked (run still active: 1)"));
        assertThat(button(robot, ButtonBar.ButtonData.NEXT_FORWARD).isDisabled()).isTrue();
        assertThat(text(robot, "#blockedReason")).contains("CANCELLED");
        assertThat(checkTitle(robot, "run_active")).isEqualTo("✘ run still active");
        assertThat(checkExplanation(robot, "run_active")).isEqualTo("run wiz-cancelled is CANCELLED (owner cancelled): nothing of it may run again");
        assertThat(dispatched()).isEqualTo(before);
        assertThat(redriveCommands()).isEqualTo(commands);
    }

    @Test
    void aChangedToolSchemaBlocksAtThePreconditionsWithItsReasonAndPublishesNothing(FxRobot robot) {
        WizardItem item = deadLettered("wiz-schema", "forbidden");
        ToolSchemaStore schemas = new ToolSchemaStore(ns.database().jdbc());
        schemas.register("demo.charge", "2", "test", Instant.now());
        try {
            long before = dispatched();
            long commands = redriveCommands();
            open(robot, item);

            next(robot);
            next(robot);

            await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("0 pass · 1 blocked (tool schema unchanged: 1)"));
            assertThat(nextDisabled(robot)).isTrue();
            assertThat(checkTitle(robot, "tool_schema")).isEqualTo("✘ tool schema unchanged");
            assertThat(checkExplanation(robot, "tool_schema"))
                    .startsWith("demo.charge changed its schema from version 1 to 2 since dispatch");
            assertThat(text(robot, "#blockedReason")).isEqualTo(checkExplanation(robot, "tool_schema"));
            assertThat(checkTitle(robot, "run_active")).startsWith("✔");
            assertThat(dispatched()).isEqualTo(before);
            assertThat(redriveCommands()).isEqualTo(commands);
        } finally {
            schemas.register("demo.charge", "1", "test", Instant.now());
        }
    }

    @Test
    void aRevokedApprovalBlocksAtThePreconditionsWithWhoRevokedItAndPublishesNothing(FxRobot robot) {
        ApprovalStore approvals = new ApprovalStore(ns.database().jdbc());
        approvals.grant("appr-wiz", "charge", "carol", null, Instant.now());
        WizardItem item = deadLettered("wiz-approval", "forbidden", "appr-wiz");
        approvals.revoke("appr-wiz", "dave", "card reported stolen", Instant.now());
        long before = dispatched();
        long commands = redriveCommands();
        open(robot, item);

        next(robot);
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("0 pass · 1 blocked (approval still valid: 1)"));
        assertThat(nextDisabled(robot)).isTrue();
        assertThat(checkTitle(robot, "approval")).isEqualTo("✘ approval still valid");
        assertThat(checkExplanation(robot, "approval"))
                .startsWith("approval appr-wiz was revoked by dave at ").endsWith(": card reported stolen");
        assertThat(text(robot, "#blockedReason")).isEqualTo(checkExplanation(robot, "approval"));
        assertThat(dispatched()).isEqualTo(before);
        assertThat(redriveCommands()).isEqualTo(commands);
    }

    @Test
    void aPossibleSideEffectTheToolCannotSettleKeepsTheOperatorOnTheReconcilePage(FxRobot robot) {
        WizardItem item = deadLettered("wiz-possible", "timeout_after_apply;lookup_down");
        long before = dispatched();
        long commands = redriveCommands();
        open(robot, item);

        await().atMost(WAIT).until(() -> text(robot, "#evidenceBadge").equals("⚠ POSSIBLE"));
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#reconcileMessage").startsWith("1 side effect(s) still POSSIBLE"));
        assertThat(nextDisabled(robot)).isTrue();

        robot.clickOn("#askTool");
        await().atMost(WAIT).until(() -> ns.database().jdbc().queryLong("SELECT count(*) FROM reconciliations "
                + "WHERE operation_id = ? AND source = 'TOOL' AND recorded_by = 'ana' AND outcome = 'UNKNOWN'",
                item.operationId()) == 1);
        await().atMost(WAIT).until(() -> !robot.lookup("#askTool").queryButton().isDisabled());

        assertThat(text(robot, "#reconcileMessage")).isEqualTo(
                "1 side effect(s) still POSSIBLE: ask the tool or record what you found before going on.");
        assertThat(nextDisabled(robot)).isTrue();
        assertThat(robot.lookup("#checkSummary").tryQuery().map(Node::isVisible).orElse(false)).isFalse();
        assertThat(dispatched()).isEqualTo(before);
        assertThat(redriveCommands()).isEqualTo(commands);
    }

    @Test
    void anEntryDecidedBySomeoneElseAfterTheChecksShowsWhoAndWhenAndPublishesNothing(FxRobot robot) {
        WizardItem item = deadLettered("wiz-raced", "forbidden");
        long before = dispatched();
        long commands = redriveCommands();
        open(robot, item);

        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("1 pass"));
        next(robot);
        decisions.discard(DecisionTarget.operation(item.operationId()), "bob", "duplicate order");
        Instant decidedAt = new OperationDetailsLoader(ns.database()).entry(item.dlqEntryId()).orElseThrow().decidedAt();
        robot.clickOn("#decisionReason").write("merchant permission restored");
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#resultSummary").equals("1 already decided by someone else"));
        assertThat(robot.from(robot.lookup("#wizardResultTable").<Node>query()).lookup(".table-cell")
                .queryAllAs(TableCell.class)).anySatisfy(cell -> assertThat(cell.getText())
                .isEqualTo("ALREADY_DECIDED: already decided by bob at " + decidedAt + " (DISCARDED: duplicate order)"));
        assertThat(dispatched()).isEqualTo(before);
        assertThat(redriveCommands()).isEqualTo(commands);
    }

    @Test
    void aBatchOverAFingerprintGroupRedrivesWhatPassesAndSkipsTheBlockedOne(FxRobot robot) {
        List<OperationId> ids = List.of(new OperationId("wiz-group-a", "charge", 0), new OperationId("wiz-group-a", "charge", 1),
                new OperationId("wiz-group-b", "charge", 0));
        ids.forEach(id -> deadLettered(id, "invalid:1", null));
        ns.database().jdbc().update("UPDATE runs SET status = 'CANCELLED', status_reason = 'owner cancelled' WHERE run_id = 'wiz-group-b'");
        String fingerprint = ns.database().jdbc().queryOne("SELECT error_fingerprint FROM dlq_entries WHERE operation_id = ?",
                row -> row.getString(1), ids.get(0).value()).orElseThrow();
        List<WizardItem> group = GroupItems.open(new JdbcDlqQueries(ns.database()), fingerprint, 100);
        assertThat(group).extracting(WizardItem::operationId)
                .containsExactlyInAnyOrderElementsOf(ids.stream().map(OperationId::value).toList());
        long before = dispatched();
        long commands = redriveCommands();
        show(robot, group, "#wizardEvidenceTable");

        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("2 pass · 1 blocked (run still active: 1)"));
        next(robot);
        robot.clickOn("#decisionReason").write("input fixed upstream");
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#resultSummary").equals("2 done · 1 skipped"));
        assertThat(robot.from(robot.lookup("#wizardResultTable").<Node>query()).lookup(".table-cell")
                .queryAllAs(TableCell.class)).anySatisfy(cell -> assertThat(cell.getText())
                .isEqualTo("skipped: blocked: run still active"));
        assertThat(dispatched()).isEqualTo(before + 2);
        assertThat(redriveCommands()).isEqualTo(commands + 2);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            robot.clickOn("#verifyRedrive");
            return text(robot, "#verification").lines().filter(line -> line.contains("succeeded exactly once")).count() == 2;
        });
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key IN (?, ?)",
                ids.get(0).idempotencyKey(), ids.get(1).idempotencyKey())).isEqualTo(2);
    }

    @Test
    void aViewerIsWarnedBeforeDeciding_andTheDatabaseRefusesTheRedrive_namingTheRole(FxRobot robot) {
        WizardItem item = deadLettered("wiz-viewer", "forbidden");
        long before = dispatched();
        long commands = redriveCommands();
        try (ViewerLogin viewer = ViewerLogin.create(ns, "wizard")) {
            WizardBackend asViewer = new TriageWizardBackend(viewer.database(), new Decisions(viewer.database(),
                    new WorkerClient(viewer.database(), ns.redis(), Clock.systemUTC()), Clock.systemUTC()),
                    HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint()), Redactor.defaults());
            String readOnly = "read-only: role " + viewer.login() + " is a viewer: it may look but not decide";
            show(robot, asViewer, List.of(item), "#wizardOperation");

            next(robot);
            await().atMost(WAIT).until(() -> text(robot, "#reconcileReadOnly").startsWith(readOnly));
            next(robot);
            await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("1 pass"));
            next(robot);
            assertThat(robot.lookup("#decisionReadOnly").queryAs(Label.class).isVisible()).isTrue();
            assertThat(text(robot, "#decisionReadOnly")).startsWith(readOnly).contains("UPDATE on dlq_entries");
            robot.clickOn("#decisionReason").write("merchant permission restored");
            next(robot);

            await().atMost(WAIT).until(() -> text(robot, "#resultSummary").equals("1 refused"));
            assertThat(robot.from(robot.lookup("#wizardResultTable").<Node>query()).lookup(".table-cell")
                    .queryAllAs(TableCell.class)).anySatisfy(cell -> assertThat(cell.getText())
                    .startsWith("REFUSED: refused by the database: " + readOnly).contains("permission denied"));
        }
        assertThat(dispatched()).isEqualTo(before);
        assertThat(redriveCommands()).isEqualTo(commands);
        assertThat(ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), item.dlqEntryId())).contains("OPEN");
    }
}
