package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.model.SideEffectState;
import dev.redrive.report.Redactor;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.triage.decision.HttpSideEffectLookup;
import org.junit.jupiter.api.AfterAll;
import dev.redrive.triage.detail.ReconciliationOutcome;
import dev.redrive.triage.generate.DlqGenerator;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReconciliationWizardViewModelTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static Decisions decisions;
    private static WizardBackend backend;
    private static DemoToolServer tools;

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(400, "wiz");
        decisions = new Decisions(ns.database(), new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC()),
                Clock.systemUTC());
        tools = DemoToolServer.start(ns.database());
        backend = new TriageWizardBackend(ns.database(), decisions,
                HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint()), Redactor.defaults());
    }

    @AfterAll
    static void stopTools() {
        tools.close();
    }

    /** Open entries of one kind nobody else takes: each test claims its own by moving them to its own run. */
    private static List<WizardItem> claim(String where, int count, String run) {
        List<WizardItem> items = ns.database().jdbc().query("""
                SELECT e.operation_id, e.id, e.version FROM dlq_entries e JOIN runs r ON r.run_id = e.run_id
                WHERE e.decision_state = 'OPEN' AND r.status = 'RUNNING' AND e.operation_id NOT IN
                      (SELECT operation_id FROM audit_log WHERE operation_id IS NOT NULL) AND\s""" + where + """
                 ORDER BY e.id LIMIT ?""", row -> new WizardItem(row.getString(1), row.getLong(2), row.getInt(3)), count);
        items.forEach(item -> ns.database().jdbc().update(
                "INSERT INTO audit_log (actor, action, operation_id, reason) VALUES ('test', 'CLAIM', ?, ?)",
                item.operationId(), run));
        return items;
    }

    private static long dispatched() {
        return ns.redis().sync().exists(ns.redis().keys().dispatch()) > 0
                ? ns.redis().sync().xlen(ns.redis().keys().dispatch()) : 0;
    }

    private static ReconciliationWizardViewModel wizard(List<WizardItem> items) {
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, UiExecutor.inline(), items, "ana");
        model.loadEvidence();
        return model;
    }

    @Test
    void aRedriveThatPassesEveryCheckIsIssuedAndPublishedOnce() {
        ReconciliationWizardViewModel model = wizard(claim("e.side_effect = 'NONE'", 1, "pass"));
        assertThat(model.canLeaveEvidence().get()).isTrue();
        assertThat(model.canLeaveReconcile().get()).isTrue();

        model.recheck();
        assertThat(model.canLeavePreconditions().get()).isTrue();
        assertThat(model.checkSummaryProperty().get()).isEqualTo("1 pass");
        assertThat(model.canIssue().get()).isFalse();
        model.reasonProperty().set("ledger is back");
        long before = dispatched();
        model.issue();

        WizardItem item = model.items().get(0);
        assertThat(item.resultProperty().get().outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(item.resultProperty().get().commandId()).isNotNull();
        assertThat(dispatched()).isEqualTo(before + 1);
        assertThat(model.resultSummaryProperty().get()).isEqualTo("1 done");
        model.verify();
        assertThat(item.outcomeProperty().get()).endsWith("command ISSUED, waiting for a worker");
    }

    @Test
    void aCancelledRunBlocksTheRedriveWithItsReasonAndPublishesNothing() {
        List<WizardItem> items = claim("e.side_effect = 'NONE'", 1, "cancelled");
        ns.database().jdbc().update("UPDATE runs SET status = 'CANCELLED', status_reason = 'owner cancelled' "
                + "WHERE run_id = (SELECT run_id FROM operations WHERE operation_id = ?)", items.get(0).operationId());
        ReconciliationWizardViewModel model = wizard(items);
        long before = dispatched();

        model.recheck();

        assertThat(model.canLeavePreconditions().get()).isFalse();
        assertThat(model.blockedReasonProperty().get()).contains("CANCELLED");
        model.reasonProperty().set("try anyway");
        model.issue();
        assertThat(model.items().get(0).resultProperty().get()).isNull();
        assertThat(model.items().get(0).outcomeProperty().get()).startsWith("skipped: blocked: run still active");
        assertThat(dispatched()).isEqualTo(before);
    }

    @Test
    void aChangedToolSchemaBlocksWithItsReason() {
        List<WizardItem> items = claim("e.side_effect = 'NONE' AND e.tool = 'mail.send'", 1, "schema");
        ns.database().jdbc().update("UPDATE tool_schemas SET is_current = false WHERE tool = 'mail.send'");
        ns.database().jdbc().update("INSERT INTO tool_schemas (tool, version, registered_by) VALUES ('mail.send', '2', 'test')");
        try {
            ReconciliationWizardViewModel model = wizard(items);
            long before = dispatched();

            model.recheck();

            assertThat(model.canLeavePreconditions().get()).isFalse();
            assertThat(model.checkSummaryProperty().get()).isEqualTo("0 pass · 1 blocked (tool schema unchanged: 1)");
            assertThat(model.blockedReasonProperty().get()).contains("mail.send").contains("2");
            assertThat(dispatched()).isEqualTo(before);
        } finally {
            ns.database().jdbc().update("DELETE FROM tool_schemas WHERE tool = 'mail.send' AND version = '2'");
            ns.database().jdbc().update("UPDATE tool_schemas SET is_current = true WHERE tool = 'mail.send'");
        }
    }

    @Test
    void aRevokedApprovalBlocksWithWhoRevokedIt() {
        List<WizardItem> items = claim("e.side_effect = 'NONE'", 1, "approval");
        ns.database().jdbc().update("INSERT INTO approvals (approval_id, scope, granted_by, revoked_at, revoked_by, "
                + "revoke_reason) VALUES ('appr-single', 'charge', 'carol', now(), 'dave', 'card reported stolen')");
        ns.database().jdbc().update("UPDATE operations SET approval_id = 'appr-single' WHERE operation_id = ?",
                items.get(0).operationId());
        ReconciliationWizardViewModel model = wizard(items);
        long before = dispatched();

        model.recheck();

        assertThat(model.canLeavePreconditions().get()).isFalse();
        assertThat(model.blockedReasonProperty().get()).contains("dave");
        assertThat(dispatched()).isEqualTo(before);
    }

    @Test
    void aPossibleSideEffectMustBeReconciledBeforeGoingOn() {
        ReconciliationWizardViewModel model = wizard(claim("e.side_effect = 'POSSIBLE' AND e.tool = 'demo.charge'", 1, "possible"));
        assertThat(model.canLeaveReconcile().get()).isFalse();
        WizardItem item = model.items().get(0);

        model.recordByOperator(item, ReconciliationOutcome.NOT_APPLIED, "");
        assertThat(model.canLeaveReconcile().get()).isFalse();
        assertThat(model.reconcileTextProperty().get()).startsWith("Say what shows");

        model.askToolForUnsettled();

        assertThat(item.sideEffectProperty().get()).isEqualTo(SideEffectState.NOT_APPLIED);
        assertThat(model.canLeaveReconcile().get()).isTrue();
        model.recheck();
        assertThat(model.canLeavePreconditions().get()).isTrue();
    }

    @Test
    void anEntryDecidedBySomeoneElseMeanwhileIsShownWithWhoAndWhen() {
        ReconciliationWizardViewModel model = wizard(claim("e.side_effect = 'NONE'", 1, "raced"));
        model.recheck();
        assertThat(model.canLeavePreconditions().get()).isTrue();
        WizardItem item = model.items().get(0);
        decisions.discard(DecisionTarget.operation(item.operationId()), "bob", "duplicate order");
        long before = dispatched();

        model.reasonProperty().set("retry");
        model.issue();

        assertThat(item.resultProperty().get().outcome()).isIn(DecisionOutcome.ALREADY_DECIDED, DecisionOutcome.BLOCKED);
        assertThat(item.outcomeProperty().get()).contains("bob");
        assertThat(dispatched()).isEqualTo(before);
    }

    @Test
    void aBatchRedrivesThePassingItemsAndReportsEachOtherOne() {
        List<WizardItem> items = claim("e.side_effect = 'NONE'", 3, "batch");
        ns.database().jdbc().update("INSERT INTO approvals (approval_id, scope, granted_by, revoked_at, revoked_by) "
                + "VALUES ('appr-batch', 'charge', 'carol', now(), 'dave')");
        ns.database().jdbc().update("UPDATE operations SET approval_id = 'appr-batch' WHERE operation_id = ?",
                items.get(2).operationId());
        ReconciliationWizardViewModel model = wizard(items);
        model.recheck();

        assertThat(model.canLeavePreconditions().get()).isTrue();
        assertThat(model.checkSummaryProperty().get()).isEqualTo("2 pass · 1 blocked (approval still valid: 1)");
        model.decisionProperty().set(DecisionKind.REDRIVE);
        model.redrivesPerSecondProperty().set(50);
        model.reasonProperty().set("batch after the outage");
        model.issue();

        assertThat(model.items()).filteredOn(i -> i.resultProperty().get() != null)
                .allMatch(i -> i.resultProperty().get().outcome() == DecisionOutcome.DONE);
        assertThat(model.resultSummaryProperty().get()).isEqualTo("2 done · 1 skipped");
        assertThat(model.items().get(2).outcomeProperty().get()).isEqualTo("skipped: blocked: approval still valid");
    }
}
