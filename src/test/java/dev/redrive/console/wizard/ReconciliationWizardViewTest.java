package dev.redrive.console.wizard;

import dev.redrive.console.ui.Truncations;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.identity.OperationId;
import dev.redrive.services.TriageServices;
import dev.redrive.store.approval.ApprovalStore;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.tool.ToolSchemaStore;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.HttpTool;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TableCell;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.redrive.console.wizard.WizardClicks.WAIT;
import static dev.redrive.console.wizard.WizardClicks.issue;
import static dev.redrive.console.wizard.WizardClicks.next;
import static dev.redrive.console.wizard.WizardClicks.nextDisabled;
import static dev.redrive.console.wizard.WizardClicks.noPrevious;
import static dev.redrive.console.wizard.WizardClicks.text;
import static org.awaitility.Awaitility.await;

/** The wizard against a namespace with the demo tools and a real worker running. */
@ExtendWith(ApplicationExtension.class)
class ReconciliationWizardViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static DemoToolServer tools;
    private static Worker worker;
    private static WorkerClient client;
    private static Decisions decisions;
    private static WizardBackend backend;

    @RegisterExtension
    final WizardStage fixture = new WizardStage();
    private ReconciliationWizardViewModel model;

    @BeforeAll
    static void startWorker() {
        tools = DemoToolServer.start(ns.database());
        HttpTool charge = HttpTool.builder("demo.charge", "1", tools.chargeEndpoint())
                .lookupEndpoint(tools.lookupEndpoint()).requestTimeout(Duration.ofSeconds(2)).build();
        worker = Worker.builder(ns.database(), ns.redis()).tool(charge).consumerName("wizard-worker").concurrency(2)
                .leaseDuration(Duration.ofSeconds(3)).claimInterval(Duration.ofMillis(200)).build().start();
        client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        decisions = new Decisions(ns.database(), client, Clock.systemUTC());
        backend = WizardStage.backend(ns, HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint()));
    }

    @AfterAll
    static void stopWorker() {
        worker.shutdown().join();
        tools.close();
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
        model = fixture.open(backend, List.of(item), "#wizardOperation");
    }

    private static long dispatched() {
        return ns.redis().sync().xlen(ns.redis().keys().dispatch());
    }

    /**
     * Takes a blocked redrive's remedy "Discard instead…": the decision step opens on discard, with redrive disabled
     * and saying what blocks it, and the entry is discarded with {@code reason}.
     */
    private static void discardInstead(FxRobot robot, String blockedBy, String reason) {
        robot.clickOn("#remedy-discard");
        await().atMost(WAIT).until(() -> robot.lookup("#decisionDiscard").tryQuery().map(Node::isVisible).orElse(false));
        assertThat(robot.lookup("#decisionDiscard").queryAs(RadioButton.class).isSelected()).isTrue();
        assertThat(robot.lookup("#decisionRedrive").queryAs(RadioButton.class).isDisabled()).isTrue();
        assertThat(text(robot, "#redriveNote")).isEqualTo("blocked by " + blockedBy);
        robot.clickOn("#decisionReason").write(reason);
        issue(robot, "Discard 1 entry");

        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));
        assertThat(text(robot, "#itemOutcome")).isEqualTo("Discarded by ana: it never runs again");
    }

    /**
     * Once the reconcile step found the effect applied: the checks block the redrive by it, and the operator takes the
     * remedy "Resolve instead…", which opens the decision step on resolve.
     */
    private static void resolveInsteadOnceFoundApplied(FxRobot robot) {
        await().atMost(WAIT).until(() -> text(robot, "#reconcileMessage").startsWith("1 applied"));
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary")
                .equals("4 of 5 checks pass; blocked by: side effect APPLIED"));
        robot.clickOn("#remedy-resolve");
        await().atMost(WAIT).until(() -> robot.lookup("#decisionResolve").tryQuery().map(Node::isVisible).orElse(false));
    }

    private static long redriveCommands() {
        return ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands");
    }

    private static Optional<String> decisionState(WizardItem item) {
        return ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?", row -> row.getString(1),
                item.dlqEntryId());
    }

    /** What has been issued so far: dispatches published and redrive commands recorded. */
    private record Issued(long dispatches, long commands) {
        static Issued now() {
            return new Issued(dispatched(), redriveCommands());
        }

        /** Exactly {@code more} redrives have been issued since: as many dispatches, as many commands. */
        void assertIssuedSince(int more) {
            assertThat(dispatched()).as("dispatches published").isEqualTo(dispatches + more);
            assertThat(redriveCommands()).as("redrive commands recorded").isEqualTo(commands + more);
        }
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

    /** The console maximised on the smallest screen it is made for (the headless screen is 1280x800, too). */
    @Test
    void theWizardOpensOverMostOfItsOwnerAndKeepsTheSizeTheOperatorGivesIt(FxRobot robot) throws Exception {
        WizardItem item = deadLettered("wiz-size", "forbidden");
        Stage console = fixture.consoleOnTheSmallestScreen();
        model = fixture.open(backend, List.of(item), "#wizardOperation", console);
        Stage wizard = (Stage) robot.listTargetWindows().stream()
                .filter(window -> window != fixture.stage() && window != console)
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
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));

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
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
        next(robot);
        assertThat(robot.lookup(".step-help").match(Node::isVisible).tryQuery()).isEmpty();
        robot.clickOn("#stepHelp");
        assertThat(robot.lookup(".step-help").match(Node::isVisible).queryAs(Label.class).getText())
                .isEqualTo(StepHelp.DECISION);
        robot.clickOn("#decisionReason").write("merchant permission restored");
        assertThat(text(robot, "#decisionPlan")).contains("dispatches attempt 2 of " + item.operationId()
                + " with idempotency key " + key);
        issue(robot, "Redrive 1 operation");

        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));
        assertThat(text(robot, "#itemOutcome")).isEqualTo("Succeeded: attempt 2 ran once, with idempotency key " + key
                + "; the tool counts one effect");
        assertThat(text(robot, "#result-failed")).isEqualTo("0 failed");
        assertThat(noPrevious(robot)).isTrue();
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key = ?", key))
                .isEqualTo(1);
        assertThat(ns.database().jdbc().queryLong("SELECT attempt FROM operations WHERE operation_id = ?",
                item.operationId())).isEqualTo(2);
    }

    @Test
    void aCancelledRunBlocksTheRedrive_andTheEntryIsDiscardedFromTheWizard(FxRobot robot) {
        WizardItem item = deadLettered("wiz-cancelled", "forbidden");
        ns.database().jdbc().update("UPDATE runs SET status = 'CANCELLED', status_reason = 'owner cancelled' WHERE run_id = 'wiz-cancelled'");
        Issued before = Issued.now();
        open(robot, item);

        next(robot);
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("4 of 5 checks pass; blocked by: run cancelled"));
        assertThat(text(robot, "#blockedReason")).isEqualTo("A redrive is blocked by run cancelled. You can still decide: discard.");
        assertThat(checkTitle(robot, "run_active")).isEqualTo("✘ run is active: run cancelled");
        assertThat(checkExplanation(robot, "run_active")).isEqualTo("run wiz-cancelled is CANCELLED (owner cancelled): nothing of it may run again");

        discardInstead(robot, "run cancelled", "backfill superseded");
        assertThat(decisionState(item)).contains("DISCARDED");
        before.assertIssuedSince(0);
    }

    @Test
    void aChangedToolSchema_theOperatorChoosesTheCurrentVersion_andTheRedriveRunsWithIt(FxRobot robot) {
        WizardItem item = deadLettered("wiz-schema", "forbidden:1");
        ToolSchemaStore schemas = new ToolSchemaStore(ns.database().jdbc());
        schemas.register("demo.charge", "2", "test", Instant.now());
        try {
            open(robot, item);

            next(robot);
            next(robot);

            await().atMost(WAIT).until(() -> text(robot, "#checkSummary")
                    .equals("4 of 5 checks pass; blocked by: schema changed 1 → 2"));
            assertThat(checkTitle(robot, "tool_schema")).isEqualTo("✘ tool schema is unchanged: schema changed 1 → 2");
            assertThat(checkExplanation(robot, "tool_schema"))
                    .startsWith("demo.charge changed its schema from version 1 to 2 since dispatch");
            assertThat(text(robot, "#schemaChange")).startsWith("demo.charge was dispatched with version 1; version 2 is current now.")
                    .contains("version 1 (dispatched with): registered by worker wizard-worker at ")
                    .contains("version 2 (current): registered by test at ").contains("\"amount\":10");
            assertThat(checkTitle(robot, "run_active")).startsWith("✔");

            robot.clickOn("#remedy-choose-schema");

            await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
            assertThat(checkExplanation(robot, "tool_schema")).startsWith("the operator chose version 2 of demo.charge");
            next(robot);
            robot.clickOn("#decisionReason").write("version 2 takes the same fields");
            assertThat(text(robot, "#decisionPlan")).contains("schema version 2 (your choice; dispatched with 1)");
            issue(robot, "Redrive 1 operation");

            await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));
            assertThat(ns.database().jdbc().queryOne("SELECT target_schema_version FROM redrive_commands WHERE operation_id = ?",
                    row -> row.getString(1), item.operationId())).contains("2");
            assertThat(ns.database().jdbc().queryOne("SELECT tool_schema_version || ' ' || status FROM operations "
                    + "WHERE operation_id = ?", row -> row.getString(1), item.operationId())).contains("2 SUCCEEDED");
        } finally {
            schemas.register("demo.charge", "1", "test", Instant.now());
        }
    }

    @Test
    void anAppliedEffect_isResolvedFromTheWizard_withRedriveDisabledAndItsReason(FxRobot robot) {
        WizardItem item = deadLettered("wiz-applied", "timeout_after_apply;lookup_down:1");
        Issued before = Issued.now();
        open(robot, item);
        await().atMost(WAIT).until(() -> text(robot, "#evidenceBadge").equals("⚠ POSSIBLE"));
        next(robot);
        robot.clickOn("#askTool");
        resolveInsteadOnceFoundApplied(robot);
        assertThat(robot.lookup("#decisionResolve").queryAs(RadioButton.class).isSelected()).isTrue();
        assertThat(robot.lookup("#decisionRedrive").queryAs(RadioButton.class).isDisabled()).isTrue();
        assertThat(text(robot, "#redriveNote")).isEqualTo("blocked by side effect APPLIED");
        robot.clickOn("#decisionReason").write("the charge went through, the answer was lost");
        issue(robot, "Resolve as succeeded");

        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));
        assertThat(ns.database().jdbc().queryOne("SELECT o.status || ' ' || e.decision_state FROM operations o "
                + "JOIN dlq_entries e ON e.operation_id = o.operation_id WHERE e.id = ?", row -> row.getString(1),
                item.dlqEntryId())).contains("SUCCEEDED RESOLVED");
        before.assertIssuedSince(0);
    }

    @Test
    void aRedriveThatFailsAgain_showsAsFailed_andLeadsToTheNewEntry(FxRobot robot) {
        WizardItem item = deadLettered("wiz-fails-again", "forbidden");
        open(robot, item);
        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
        next(robot);
        robot.clickOn("#decisionReason").write("permission should be back");
        issue(robot, "Redrive 1 operation");

        await().atMost(WAIT).until(() -> text(robot, "#result-failed").equals("1 failed"));
        long newEntry = ns.database().jdbc().queryLong("SELECT id FROM dlq_entries WHERE operation_id = ? "
                + "AND decision_state = 'OPEN'", item.operationId());
        assertThat(newEntry).isNotEqualTo(item.dlqEntryId());
        assertThat(text(robot, "#result-succeeded")).isEqualTo("0 succeeded");
        assertThat(text(robot, "#itemOutcome")).startsWith("Failed again: attempt 2 ended PERMISSION")
                .endsWith("the operation is back in the DLQ as entry " + newEntry);
        assertThat(noPrevious(robot)).isTrue();

        robot.clickOn("#newEntryLink");

        await().atMost(WAIT).until(fixture::onlyTheStageShows);
        assertThat(model.entryToShow()).isEqualTo(new ReconciliationWizardViewModel.EntryRef(item.operationId(), newEntry));
    }

    @Test
    void aRevokedApprovalBlocksTheRedriveWithWhoRevokedIt_andTheEntryIsDiscardedFromTheWizard(FxRobot robot) {
        ApprovalStore approvals = new ApprovalStore(ns.database().jdbc());
        approvals.grant("appr-wiz", "charge", "carol", null, Instant.now());
        WizardItem item = deadLettered("wiz-approval", "forbidden", "appr-wiz");
        approvals.revoke("appr-wiz", "dave", "card reported stolen", Instant.now());
        Issued before = Issued.now();
        open(robot, item);

        next(robot);
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("4 of 5 checks pass; blocked by: approval revoked"));
        assertThat(nextDisabled(robot)).isFalse();
        assertThat(checkTitle(robot, "approval")).isEqualTo("✘ approval is valid: approval revoked");
        assertThat(checkExplanation(robot, "approval"))
                .startsWith("approval appr-wiz was revoked by dave at ").endsWith(": card reported stolen");
        assertThat(robot.lookup("#remedy-discard").queryButton().getText()).isEqualTo("Discard instead…");

        discardInstead(robot, "approval revoked", "the card was reported stolen");
        assertThat(noPrevious(robot)).isTrue();
        assertThat(decisionState(item)).contains("DISCARDED");
        before.assertIssuedSince(0);
    }

    /**
     * Someone else records a finding on the entry while the operator reads its evidence: the checks refuse to decide
     * on what the operator has not seen, and Refresh reads it again so that the decision is taken in the same wizard.
     */
    @Test
    void anEntryChangedBySomeoneElseWhileTheOperatorLooks_isReadAgainWithRefresh_andRedrivenFromTheWizard(FxRobot robot) {
        WizardItem item = deadLettered("wiz-changed", "forbidden:1");
        open(robot, item);
        await().atMost(WAIT).until(() -> text(robot, "#evidenceBadge").equals("NONE"));
        decisions.recordReconciliation(item.operationId(), ReconciliationOutcome.NOT_APPLIED,
                "the processor's ledger has no such charge", null, "bob");
        next(robot);
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#checkSummary")
                .equals("4 of 5 checks pass; blocked by: entry changed since you looked"));
        assertThat(nextDisabled(robot)).isTrue();
        assertThat(text(robot, "#blockedReason")).contains("changed since you looked at it (version " + (item.target()
                .seenVersion() + 1) + ", you saw " + item.target().seenVersion() + ")");
        robot.clickOn("#remedy-refresh");

        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
        assertThat(checkExplanation(robot, "side_effect")).startsWith("reconciliation found the effect was not applied (operator bob");
        next(robot);
        robot.clickOn("#decisionReason").write("bob found no charge; permission restored");
        issue(robot, "Redrive 1 operation");

        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));
        assertThat(text(robot, "#itemOutcome")).startsWith("Succeeded: attempt 2 ran once");
        assertThat(ns.database().jdbc().queryOne("SELECT decided_by FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), item.dlqEntryId())).contains("ana");
    }

    @Test
    void theOperatorRecordsAppliedWithTheToolsResult_andResolvesWithItFromTheWizard(FxRobot robot) {
        WizardItem item = deadLettered("wiz-manual-applied", "timeout_after_apply;lookup_down");
        long before = dispatched();
        open(robot, item);
        await().atMost(WAIT).until(() -> text(robot, "#evidenceBadge").equals("⚠ POSSIBLE"));
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#reconcileMessage").startsWith("1 side effect(s) still POSSIBLE"));

        robot.clickOn(".combo-box").clickOn("APPLIED");
        robot.clickOn("#manualEvidence").write("PSP ledger shows the charge");
        robot.clickOn("#manualResult").write("ch_77");
        assertThat(text(robot, "#manualResultProblem"))
                .isEqualTo("the result must be a JSON object such as {\"charge_id\":\"ch_1\"}, got 'ch_77'");
        assertThat(robot.lookup("#recordManual").queryButton().isDisabled()).isTrue();
        robot.interact(() -> robot.lookup("#manualResult").queryAs(TextField.class).setText(""));
        robot.clickOn("#manualResult").write("{\"charge_id\":\"ch_77\"}");
        assertThat(robot.lookup("#manualResultProblem").query().isVisible()).isFalse();
        robot.clickOn("#recordManual");
        resolveInsteadOnceFoundApplied(robot);
        assertThat(robot.lookup("#decisionResolve").queryAs(RadioButton.class).isDisabled()).isFalse();
        robot.clickOn("#decisionReason").write("charged, the answer was lost");
        issue(robot, "Resolve as succeeded");

        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("1 succeeded"));
        assertThat(ns.database().jdbc().queryOne("SELECT o.status || ' ' || (o.result ->> 'charge_id') || ' ' || "
                + "e.decision_state FROM operations o JOIN dlq_entries e ON e.operation_id = o.operation_id WHERE e.id = ?",
                row -> row.getString(1), item.dlqEntryId())).contains("SUCCEEDED ch_77 RESOLVED");
        assertThat(ns.database().jdbc().queryOne("SELECT recorded_by || ' ' || source || ' ' || (result ->> 'charge_id') "
                + "FROM reconciliations WHERE operation_id = ? AND outcome = 'APPLIED'", row -> row.getString(1),
                item.operationId())).contains("ana OPERATOR ch_77");
        assertThat(dispatched()).isEqualTo(before);
    }

    @Test
    void aPossibleSideEffectTheToolCannotSettleKeepsTheOperatorOnTheReconcilePage(FxRobot robot) {
        WizardItem item = deadLettered("wiz-possible", "timeout_after_apply;lookup_down");
        Issued before = Issued.now();
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
        assertThat(model.items().get(0).reconciliationProperty().get())
                .as("why the tool could not tell: its look-up is down, not 'it does not know'")
                .startsWith("tool answered: unknown · GET ").contains("answered 503", "lookup_unavailable");
        assertThat(nextDisabled(robot)).isTrue();
        assertThat(robot.lookup("#checkSummary").tryQuery().map(Node::isVisible).orElse(false)).isFalse();
        before.assertIssuedSince(0);
    }

    @Test
    void anEntryDecidedBySomeoneElseAfterTheChecksShowsWhoAndWhenAndPublishesNothing(FxRobot robot) {
        WizardItem item = deadLettered("wiz-raced", "forbidden");
        Issued before = Issued.now();
        open(robot, item);

        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
        next(robot);
        decisions.discard(DecisionTarget.operation(item.operationId()), "bob", "duplicate order");
        Instant decidedAt = new OperationDetailsLoader(ns.database()).entry(item.dlqEntryId()).orElseThrow().decidedAt();
        robot.clickOn("#decisionReason").write("merchant permission restored");
        issue(robot, "Redrive 1 operation");

        await().atMost(WAIT).until(() -> text(robot, "#result-blocked").equals("1 blocked"));
        assertThat(text(robot, "#itemOutcome"))
                .isEqualTo("Not redriven: already decided by bob at " + decidedAt + " (DISCARDED: duplicate order)");
        before.assertIssuedSince(0);
    }

    @Test
    void anEntryDecidedBySomeoneElseBeforeTheChecks_saysWhoWhenAndWhat_andRefreshes(FxRobot robot) {
        WizardItem item = deadLettered("wiz-decided", "forbidden");
        decisions.discard(DecisionTarget.operation(item.operationId()), "bob", "duplicate order");
        open(robot, item);
        next(robot);
        next(robot);

        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("4 of 5 checks pass; blocked by: discarded by bob"));
        assertThat(nextDisabled(robot)).isTrue();
        assertThat(text(robot, "#blockedReason")).startsWith("No decision is possible: discarded by bob. already decided by bob at ")
                .endsWith("(DISCARDED: duplicate order)");
        robot.clickOn("#remedy-refresh");
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("4 of 5 checks pass; blocked by: discarded by bob"));
        assertThat(nextDisabled(robot)).isTrue();
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
        Issued before = Issued.now();
        model = fixture.open(backend, group, "#wizardEvidenceTable");

        next(robot);
        next(robot);
        await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("2 of 3 entries pass every check; 1 blocked"));
        assertThat(robot.from(robot.lookup("#wizardTallyTable").<Node>query()).lookup(".table-cell")
                .queryAllAs(TableCell.class)).extracting(TableCell::getText)
                .contains("run is active", "1 entry", "run cancelled", "discard 1");
        next(robot);
        assertThat(text(robot, "#redriveNote")).isEqualTo("2 of 3 entries; not 1 blocked by run cancelled");
        robot.clickOn("#decisionReason").write("input fixed upstream");
        issue(robot, "Redrive 2 operations");

        await().atMost(WAIT).until(() -> text(robot, "#result-succeeded").equals("2 succeeded"));
        assertThat(text(robot, "#result-blocked")).isEqualTo("1 blocked");
        // The result table lays its cells out on a later pulse than the tally above it.
        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.from(robot.lookup("#wizardResultTable").<Node>query())
                .lookup(".table-cell").queryAllAs(TableCell.class)).extracting(TableCell::getText)
                .filteredOn(java.util.Objects::nonNull).contains("Not redriven: blocked by run cancelled"));
        before.assertIssuedSince(2);
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key IN (?, ?)",
                ids.get(0).idempotencyKey(), ids.get(1).idempotencyKey())).isEqualTo(2);
    }

    @Test
    void aViewerIsWarnedBeforeDeciding_andTheDatabaseRefusesTheRedrive_namingTheRole(FxRobot robot) {
        WizardItem item = deadLettered("wiz-viewer", "forbidden");
        Issued before = Issued.now();
        try (DatabaseLogin viewer = DatabaseLogin.viewer(ns, "wizard")) {
            WizardBackend asViewer = new TriageWizardBackend(TriageServices.over(viewer.database(), ns.redis(),
                    Clock.systemUTC()), HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint()), Redactor.defaults());
            String readOnly = "read-only: role " + viewer.login() + " is a viewer: it may look but not decide";
            model = fixture.open(asViewer, List.of(item), "#wizardOperation");

            next(robot);
            await().atMost(WAIT).until(() -> text(robot, "#reconcileReadOnly").startsWith(readOnly));
            next(robot);
            await().atMost(WAIT).until(() -> text(robot, "#checkSummary").equals("5 of 5 checks pass"));
            next(robot);
            assertThat(robot.lookup("#decisionReadOnly").queryAs(Label.class).isVisible()).isTrue();
            assertThat(text(robot, "#decisionReadOnly")).startsWith(readOnly).contains("UPDATE on dlq_entries");
            robot.clickOn("#decisionReason").write("merchant permission restored");
            issue(robot, "Redrive 1 operation");

            await().atMost(WAIT).until(() -> text(robot, "#result-blocked").equals("1 blocked"));
            assertThat(text(robot, "#itemOutcome")).startsWith("Not redriven: refused by the database: " + readOnly)
                    .contains("permission denied");
        }
        before.assertIssuedSince(0);
        assertThat(decisionState(item)).contains("OPEN");
    }
}
