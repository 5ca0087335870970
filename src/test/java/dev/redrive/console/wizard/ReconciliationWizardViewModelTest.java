package dev.redrive.console.wizard;

import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.model.SideEffectState;
import dev.redrive.services.TriageServices;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import org.junit.jupiter.api.AfterAll;
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
        decisions = TestDecisions.of(ns);
        tools = DemoToolServer.start(ns.database());
        backend = new TriageWizardBackend(TriageServices.over(ns.database(), ns.redis(), Clock.systemUTC()),
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
        assertThat(model.checkSummaryProperty().get()).isEqualTo("5 of 5 checks pass");
        assertThat(model.canIssue().get()).isFalse();
        assertThat(model.actionTextProperty().get()).isEqualTo("Redrive 1 operation");
        assertThat(model.planProperty().get()).contains("dispatches attempt " + (model.items().get(0).reportProperty().get()
                .fromAttempt() + 1)).contains("idempotency key " + model.items().get(0).detailsProperty().get()
                .operation().idempotencyKey());
        model.reasonProperty().set("ledger is back");
        long before = dispatched();
        model.issue();

        WizardItem item = model.items().get(0);
        assertThat(item.resultProperty().get().outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(item.resultProperty().get().commandId()).isNotNull();
        assertThat(dispatched()).isEqualTo(before + 1);
        assertThat(model.resultSummaryProperty().get()).isEqualTo("0 succeeded · 0 failed · 0 blocked · 1 waiting");
        assertThat(model.issuedProperty().get()).isTrue();
        assertThat(model.canIssue().get()).isFalse();
        model.verify();
        assertThat(item.outcomeProperty().get().text())
                .isEqualTo("Redrive issued: attempt " + item.resultProperty().get().newAttempt() + " is waiting for a worker");
    }

    @Test
    void aCancelledRunBlocksTheRedrive_andLeavesDiscardChosen() {
        List<WizardItem> items = claim("e.side_effect = 'NONE'", 1, "cancelled");
        ns.database().jdbc().update("UPDATE runs SET status = 'CANCELLED', status_reason = 'owner cancelled' "
                + "WHERE run_id = (SELECT run_id FROM operations WHERE operation_id = ?)", items.get(0).operationId());
        ReconciliationWizardViewModel model = wizard(items);
        long before = dispatched();

        model.recheck();

        assertThat(model.checkSummaryProperty().get()).isEqualTo("4 of 5 checks pass; blocked by: run cancelled");
        assertThat(model.canLeavePreconditions().get()).isTrue();
        assertThat(model.blockedReasonProperty().get())
                .isEqualTo("A redrive is blocked by run cancelled. You can still decide: discard.");
        assertThat(model.allowedProperty(DecisionKind.REDRIVE).get()).isFalse();
        assertThat(model.choiceNoteProperty(DecisionKind.REDRIVE).get()).isEqualTo("blocked by run cancelled");
        assertThat(model.decisionProperty().get()).isEqualTo(DecisionKind.DISCARD);
        assertThat(model.actionTextProperty().get()).isEqualTo("Discard 1 entry");
        assertThat(model.remedies()).extracting(Remedy::action).containsExactly(Remedy.Action.DISCARD);
        model.choose(DecisionKind.REDRIVE);
        model.reasonProperty().set("try anyway");
        assertThat(model.canIssue().get()).isFalse();
        model.issue();
        assertThat(model.items().get(0).resultProperty().get()).isNull();
        assertThat(model.items().get(0).outcomeProperty().get().text()).isEqualTo("Not redriven: blocked by run cancelled");
        assertThat(dispatched()).isEqualTo(before);
    }

    @Test
    void aChangedToolSchemaBlocksUntilTheOperatorChoosesTheCurrentVersion_whichTheCommandRecords() {
        List<WizardItem> items = claim("e.side_effect = 'NONE' AND e.tool = 'mail.send'", 1, "schema");
        ns.database().jdbc().update("UPDATE tool_schemas SET is_current = false WHERE tool = 'mail.send'");
        ns.database().jdbc().update("INSERT INTO tool_schemas (tool, version, registered_by) VALUES ('mail.send', '2', 'test')");
        try {
            ReconciliationWizardViewModel model = wizard(items);
            long before = dispatched();

            model.recheck();

            assertThat(model.checkSummaryProperty().get()).isEqualTo("4 of 5 checks pass; blocked by: schema changed 1 → 2");
            assertThat(model.schemaChangeProperty().get()).startsWith("mail.send was dispatched with version 1; version 2 "
                    + "is current now.").contains("version 2 (current): registered by test at ")
                    .contains("registers no field definitions");
            assertThat(dispatched()).isEqualTo(before);
            Remedy choose = model.remedies().get(0);
            assertThat(choose.label()).isEqualTo("Redrive with mail.send version 2");

            model.apply(choose);

            assertThat(model.checkSummaryProperty().get()).isEqualTo("5 of 5 checks pass");
            assertThat(model.planProperty().get()).contains("schema version 2 (your choice; dispatched with 1)");
            model.reasonProperty().set("version 2 reads the same fields");
            model.issue();
            assertThat(model.items().get(0).resultProperty().get().outcome()).isEqualTo(DecisionOutcome.DONE);
            assertThat(ns.database().jdbc().queryOne("SELECT target_schema_version FROM redrive_commands WHERE operation_id = ?",
                    row -> row.getString(1), items.get(0).operationId())).contains("2");
            assertThat(dispatched()).isEqualTo(before + 1);
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

        assertThat(model.checkSummaryProperty().get()).isEqualTo("4 of 5 checks pass; blocked by: approval revoked");
        assertThat(model.items().get(0).reportProperty().get().failed().get(0).explanation()).contains("dave");
        assertThat(model.canLeavePreconditions().get()).isTrue();
        assertThat(model.decisionProperty().get()).isEqualTo(DecisionKind.DISCARD);
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
        assertThat(item.reconciliationProperty().get()).startsWith("tool answered: not applied");
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
        assertThat(item.outcomeProperty().get().kind()).isEqualTo(ItemResult.Kind.BLOCKED);
        assertThat(item.outcomeProperty().get().text()).startsWith("Not redriven: ").contains("bob");
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
        assertThat(model.checkSummaryProperty().get()).isEqualTo("2 of 3 entries pass every check; 1 blocked");
        assertThat(model.tallies()).extracting(CheckTally::line)
                .containsExactly("approval is valid blocks 1 (approval revoked): it can still get discard 1");
        assertThat(model.choiceNoteProperty(DecisionKind.REDRIVE).get())
                .isEqualTo("2 of 3 entries; not 1 blocked by approval revoked");
        assertThat(model.actionTextProperty().get()).isEqualTo("Redrive 2 operations");
        model.choose(DecisionKind.REDRIVE);
        model.redrivesPerSecondProperty().set(50);
        model.reasonProperty().set("batch after the outage");
        List<String> progressLines = new java.util.ArrayList<>();
        model.progressTextProperty().addListener((obs, was, now) -> progressLines.add(now));
        List<String> summaries = new java.util.ArrayList<>();
        model.resultSummaryProperty().addListener((obs, was, now) -> summaries.add(now));
        model.issue();

        // The batch's progress says how fast it goes and how long the rest takes.
        assertThat(progressLines).anyMatch(line -> line.matches("Issuing redrives: 1 of 2 · [\\d,]+ items/s · .+ left"));
        // The counters agree with the rows while it runs: the blocked item is counted before the first redrive.
        assertThat(summaries).first().isEqualTo("0 succeeded · 0 failed · 1 blocked · 0 waiting");

        assertThat(model.items()).filteredOn(i -> i.resultProperty().get() != null)
                .allMatch(i -> i.resultProperty().get().outcome() == DecisionOutcome.DONE);
        assertThat(model.resultSummaryProperty().get()).isEqualTo("0 succeeded · 0 failed · 1 blocked · 2 waiting");
        assertThat(model.items().get(2).outcomeProperty().get().text()).isEqualTo("Not redriven: blocked by approval revoked");
    }

    @Test
    void stoppingAPacedBatchAfterItsFirstRedrive_leavesTheItemsNotReachedOpenAndSaysSo() {
        List<WizardItem> items = claim("e.side_effect = 'NONE'", 3, "stopped");
        ReconciliationWizardViewModel model = wizard(items);
        model.recheck();
        model.choose(DecisionKind.REDRIVE);
        // A chunk holds a tenth of a second's redrives, at least one: at 1 per second one, then a second's pause, so
        // Stop lands after the first even on a loaded machine (at 5 per second, 200 ms was sometimes too short).
        model.redrivesPerSecondProperty().set(1);
        model.reasonProperty().set("stopped after the first");
        // The operator presses Stop as soon as the first redrive is recorded.
        items.get(0).resultProperty().addListener((obs, was, now) -> model.stop());

        model.issue();

        assertThat(items.get(0).resultProperty().get().outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(items.subList(1, 3)).allMatch(item -> item.resultProperty().get() == null);
        assertThat(model.progressTextProperty().get()).isEqualTo("Issuing redrives: 1 of 3 done (stopped)");
        assertThat(model.stoppedNoteProperty().get()).isEqualTo("Stopped after 1 of 3 redrives: 2 not reached, left open.");
        assertThat(model.pacingProperty().get()).as("Stop goes away").isFalse();
        assertThat(ns.database().jdbc().queryLong(
                "SELECT count(*) FROM dlq_entries WHERE id = ANY (?::text[]::bigint[]) AND decision_state = 'OPEN'",
                (Object) new String[]{items.get(1).dlqEntryId().toString(), items.get(2).dlqEntryId().toString()}))
                .isEqualTo(2);
    }
}
