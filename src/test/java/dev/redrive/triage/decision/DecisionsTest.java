package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.store.reconciliation.ReconciliationSource;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.decision.lookup.ToolSideEffectLookup;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.worker.tool.HttpTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecisionsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DeadLetterFixture fixture;
    private static Decisions decisions;
    private static DemoToolServer tools;
    private static SideEffectLookup lookup;

    @BeforeAll
    static void start() {
        fixture = DeadLetterFixture.withChargeTool(ns.database());
        decisions = TestDecisions.of(ns);
        tools = DemoToolServer.start(ns.database());
        lookup = HttpSideEffectLookup.forTool("demo.charge", tools.lookupEndpoint());
    }

    @AfterAll
    static void stop() {
        tools.close();
    }

    @Test
    void lostAnswerWhoseChargeWasApplied_isResolvedWithTheResultTheToolReconciled() throws Exception {
        Created op = uncertain("applied");
        charge(op);

        ReconciliationResult reconciled = decisions.reconcileWithTool(op.operationId(), lookup, "alice");
        DecisionResult resolved = decisions.resolve(DecisionTarget.operation(op.operationId()), null, "alice", "charge found");

        assertThat(reconciled.outcome()).isEqualTo(ReconciliationOutcome.APPLIED);
        assertThat(reconciled.source()).isEqualTo(ReconciliationSource.TOOL);
        assertThat(reconciled.evidence()).contains("answered 200");
        assertThat(reconciled.sideEffect()).isEqualTo(SideEffectState.APPLIED);
        assertThat(resolved.outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(ns.jdbc().queryOne("SELECT status || ' ' || (result->>'idempotency_key') FROM operations WHERE operation_id = ?",
                row -> row.getString(1), op.operationId())).contains("SUCCEEDED " + op.idempotencyKey());
        assertThat(ns.jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?", row -> row.getString(1), op.dlqEntryId()))
                .contains("RESOLVED");
        assertThat(ns.jdbc().query("SELECT action FROM audit_log WHERE operation_id = ? ORDER BY id", row -> row.getString(1), op.operationId()))
                .containsExactly("RECONCILE", "RESOLVE");
    }

    @Test
    void lostAnswerWhoseChargeNeverHappened_becomesSafeToRedrive() {
        Created op = uncertain("not-applied");
        assertThat(decisions.checkRedrive(DecisionTarget.operation(op.operationId())).outcome()).isEqualTo(DecisionOutcome.BLOCKED);

        ReconciliationResult reconciled = decisions.reconcileWithTool(op.operationId(), lookup, "alice");

        assertThat(reconciled.outcome()).isEqualTo(ReconciliationOutcome.NOT_APPLIED);
        assertThat(reconciled.entryVersion()).isEqualTo(1);
        assertThat(decisions.checkRedrive(DecisionTarget.operation(op.operationId())).outcome()).isEqualTo(DecisionOutcome.WOULD_PASS);
        assertThat(ns.jdbc().queryOne("SELECT side_effect FROM dlq_entries WHERE id = ?", row -> row.getString(1), op.dlqEntryId()))
                .contains("NOT_APPLIED");
    }

    @Test
    void theWorkersOwnToolReconciliation_canAnswerTheLookUp() throws Exception {
        Created op = uncertain("worker-tool");
        charge(op);
        SideEffectLookup workerTools = new ToolSideEffectLookup(List.of(
                HttpTool.builder("demo.charge", "1", tools.chargeEndpoint()).lookupEndpoint(tools.lookupEndpoint()).build()));

        ReconciliationResult reconciled = decisions.reconcileWithTool(op.operationId(), workerTools, "alice");

        assertThat(reconciled.outcome()).isEqualTo(ReconciliationOutcome.APPLIED);
        assertThat(reconciled.result().path("idempotency_key").asText()).isEqualTo(op.idempotencyKey());
        assertThat(new ToolSideEffectLookup(List.of()).lookUp("crm.sync", "k").outcome()).isEqualTo(ReconciliationOutcome.UNKNOWN);
    }

    @Test
    void operatorEvidence_isRecordedAndUnknownLeavesTheSideEffectUncertain() {
        Created op = uncertain("operator");

        ReconciliationResult unknown = decisions.recordReconciliation(op.operationId(), ReconciliationOutcome.UNKNOWN,
                "PSP support has not answered yet", null, "bob");
        ReconciliationResult notApplied = decisions.recordReconciliation(op.operationId(), ReconciliationOutcome.NOT_APPLIED,
                "PSP ticket 5512: no charge for this key", null, "bob");

        assertThat(unknown.sideEffect()).isEqualTo(SideEffectState.POSSIBLE);
        assertThat(notApplied.sideEffect()).isEqualTo(SideEffectState.NOT_APPLIED);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM reconciliations WHERE operation_id = ? AND source = 'OPERATOR' AND recorded_by = 'bob'",
                op.operationId())).isEqualTo(2);
    }

    @Test
    void resolveWithoutAnyResult_isBlockedAndWritesNothing() {
        Created op = fixture.deadLettered("run-nores", "charge").create();

        DecisionResult result = decisions.resolve(DecisionTarget.operation(op.operationId()), null, "alice", "looks done");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.BLOCKED);
        assertThat(result.message()).contains("needs the reconciled result");
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE operation_id = ?", op.operationId())).isZero();
    }

    @Test
    void discard_endsTheOperationAndTheEntryWithTheReason() {
        Created op = fixture.deadLettered("run-discard", "charge").errorClass(FailureClass.INVALID_INPUT).create();

        DecisionResult result = decisions.discard(DecisionTarget.operation(op.operationId()), "bob", "order was cancelled by phone");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(ns.jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), op.operationId()))
                .contains("DISCARDED");
        assertThat(ns.jdbc().queryOne("SELECT decision_state || '|' || decided_by || '|' || decision_reason FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), op.dlqEntryId())).contains("DISCARDED|bob|order was cancelled by phone");
        assertThat(ns.jdbc().queryOne("SELECT actor || '|' || reason FROM audit_log WHERE action = 'DISCARD' AND dlq_entry_id = ?",
                row -> row.getString(1), op.dlqEntryId())).contains("bob|order was cancelled by phone");
    }

    @Test
    void aDecisionWithoutReasonOrOperator_isRefused() {
        DecisionTarget target = DecisionTarget.operation("run-x:node:0");

        assertThatThrownBy(() -> decisions.discard(target, "bob", " ")).hasMessageContaining("needs a reason");
        assertThatThrownBy(() -> decisions.redrive(target, "", "because")).hasMessageContaining("operator");
        assertThatThrownBy(() -> decisions.resolve(target, JsonNodeFactory.instance.objectNode(), null, "x"))
                .hasMessageContaining("operator");
    }

    @Test
    void aDecisionTheStoreRefuses_isReportedAsRefusedAndLeavesNoTrace() {
        Created op = fixture.deadLettered("run-refused", "charge").create();
        ns.jdbc().update("""
                CREATE FUNCTION refuse_decisions() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'permission denied for table dlq_entries' USING ERRCODE = 'insufficient_privilege';
                END $$""");
        ns.jdbc().update("CREATE TRIGGER viewer_only BEFORE UPDATE ON dlq_entries FOR EACH ROW WHEN (OLD.run_id = 'run-refused') "
                + "EXECUTE FUNCTION refuse_decisions()");
        long before = ns.redis().sync().xlen(ns.redis().keys().dispatch());

        DecisionResult redrive = decisions.redrive(DecisionTarget.operation(op.operationId()), "viewer", "try");
        DecisionResult discard = decisions.discard(DecisionTarget.operation(op.operationId()), "viewer", "try");

        assertThat(redrive.outcome()).isEqualTo(DecisionOutcome.REFUSED);
        assertThat(redrive.message()).contains("refused by the database", "permission denied");
        assertThat(discard.outcome()).isEqualTo(DecisionOutcome.REFUSED);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id = ?", op.operationId())).isZero();
        assertThat(ns.jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), op.operationId()))
                .contains("DEAD_LETTERED");
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(before);
    }

    @Test
    void redriveWhoseDispatchCannotBePublished_staysRecordedForTheSweep() {
        Created op = fixture.deadLettered("run-redis-down", "charge").create();
        Decisions withoutRedis = new Decisions(ns.database(), (DispatchPublisher) envelope -> {
            throw new IllegalStateException("Redis at redis://127.0.0.1:6379 is not reachable");
        }, Clock.systemUTC());

        DecisionResult result = withoutRedis.redrive(DecisionTarget.operation(op.operationId()), "alice", "ledger back");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.NOT_PUBLISHED);
        assertThat(result.recorded()).isTrue();
        assertThat(result.message()).contains("not reachable", "sweep re-publishes");
        assertThat(ns.jdbc().queryOne("SELECT status || ' ' || redrive_command_id FROM operations WHERE operation_id = ?",
                row -> row.getString(1), op.operationId())).contains("PENDING " + result.commandId());
        assertThat(ns.jdbc().query("SELECT action FROM audit_log WHERE operation_id = ? ORDER BY id", row -> row.getString(1),
                op.operationId())).containsExactly("REDRIVE", "REDRIVE_NOT_PUBLISHED");
    }

    private static Created uncertain(String node) {
        return fixture.deadLettered("run-uncertain", node).errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).message("read timed out after 5000 ms").create();
    }

    private static void charge(Created op) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(tools.chargeEndpoint())
                .header("Idempotency-Key", op.idempotencyKey())
                .header("X-Operation-Id", op.operationId())
                .header("X-Attempt", "1")
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":10}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
    }
}
