package dev.redrive.demo.sandbox;

import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.store.Jdbc;
import dev.redrive.testing.TestCorrections;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.ApprovalResult;
import dev.redrive.triage.request.DecisionRequest;
import dev.redrive.triage.request.DecisionRequests;
import dev.redrive.triage.request.FourEyesPolicy;
import dev.redrive.triage.request.RequestKind;
import dev.redrive.triage.request.RequestState;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SandboxSeedTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static Sandbox sandbox;
    private static SeedSummary summary;

    @BeforeAll
    static void seedAFreshNamespace() {
        sandbox = Sandbox.connect(ns.config(), Clock.systemUTC(), line -> { });
        summary = sandbox.reseed(SeedSize.SMALL);
    }

    @AfterAll
    static void stopTheSandbox() {
        sandbox.close();
    }

    private static Jdbc jdbc() {
        return ns.database().jdbc();
    }

    @Test
    void everyFailureClass_endsUpInTheDlq() {
        assertThat(summary.dlqByClass().keySet()).containsExactlyInAnyOrder(FailureClass.values());
        assertThat(summary.operations()).isGreaterThan(summary.deadLettered());
        assertThat(summary.succeeded()).isPositive();
        assertThat(jdbc().queryLong("SELECT count(*) FROM operations WHERE status IN ('PENDING', 'RUNNING', 'RETRY_SCHEDULED')"))
                .isZero();
    }

    @Test
    void uncertainSideEffects_areDeadLetteredAsPossible_afterTheEffectWasApplied() {
        assertThat(summary.possibleSideEffects()).isPositive();
        assertThat(jdbc().queryLong("""
                SELECT count(*) FROM dlq_entries d JOIN demo_tool_effects e ON e.idempotency_key = d.idempotency_key
                 WHERE d.side_effect = 'POSSIBLE' AND d.error_class = 'UNKNOWN_SIDE_EFFECT'
                """)).isPositive();
    }

    @Test
    void retriedAndReconciledOperations_succeedWithOneEffectEach() {
        assertThat(jdbc().queryLong("SELECT count(*) FROM operations WHERE status = 'SUCCEEDED' AND attempt > 1"))
                .isPositive();
        assertThat(jdbc().queryLong("SELECT count(*) FROM operations WHERE status = 'SUCCEEDED' AND side_effect = 'APPLIED'"))
                .isPositive();
        assertThat(jdbc().queryLong("""
                SELECT count(*) FROM (SELECT idempotency_key FROM demo_tool_effects GROUP BY 1 HAVING count(*) > 1) twice
                """)).isZero();
    }

    @Test
    void theBackfillRun_isCancelledWithDeadLettersInIt() {
        assertThat(jdbc().queryLong("""
                SELECT count(*) FROM runs r JOIN dlq_entries d ON d.run_id = r.run_id
                 WHERE r.status = 'CANCELLED' AND d.decision_state = 'OPEN'
                """)).isPositive();
    }

    @Test
    void theRefundsApproval_isRevokedAfterItsOperationsFailed() {
        assertThat(jdbc().queryLong("""
                SELECT count(*) FROM approvals a JOIN dlq_entries d ON d.approval_id = a.approval_id
                 WHERE a.revoked_at IS NOT NULL AND d.error_class = 'PERMISSION'
                """)).isPositive();
    }

    @Test
    void theShipToolSchema_changedToVersion2_afterItsOperationsFailedOnVersion1() {
        assertThat(jdbc().queryOne("SELECT version FROM tool_schemas WHERE tool = 'demo.ship' AND is_current",
                row -> row.getString(1))).contains("2");
        assertThat(jdbc().queryLong("""
                SELECT count(*) FROM dlq_entries WHERE tool = 'demo.ship' AND tool_schema_version = '1'
                """)).isPositive();
    }

    @Test
    void theFirstTriageDecisions_areAudited_andTheRedriveRanOnce() {
        assertThat(jdbc().query("SELECT DISTINCT decision_state FROM dlq_entries", row -> row.getString(1)))
                .contains("DISCARDED", "RESOLVED", "REDRIVEN", "OPEN");
        assertThat(jdbc().query("SELECT DISTINCT actor FROM audit_log WHERE operation_id IS NOT NULL", row -> row.getString(1)))
                .contains("alice", "bob", "carol");
        assertThat(jdbc().query("""
                SELECT o.status || ' attempt ' || o.attempt || ', effects ' ||
                       (SELECT count(*) FROM demo_tool_effects e WHERE e.idempotency_key = o.idempotency_key)
                  FROM redrive_commands c JOIN operations o ON o.operation_id = c.operation_id
                 WHERE c.status = 'SUCCEEDED' AND o.corrects IS NULL
                """, row -> row.getString(1)))
                .as("the seeded redrive (a correction another test takes is not one of the first decisions)")
                .containsExactly("SUCCEEDED attempt " + (IncidentScenario.EXHAUSTS_RETRIES + 1) + ", effects 1");
    }

    @Test
    void malformedDispatches_areDeadLetteredAsInvalidInputWithTheirRawMessage() {
        assertThat(jdbc().queryLong("""
                SELECT count(*) FROM dlq_entries WHERE error_class = 'INVALID_INPUT' AND raw_message->>'runtime_version' = 'legacy-runtime-0.9'
                """)).isEqualTo(2);
    }

    @Test
    void reseeding_wipesTheNamespaceAndSeedsTheSameIncidentAgain() {
        SeedSummary again = sandbox.reseed(SeedSize.SMALL);

        assertThat(again.operations()).isEqualTo(summary.operations());
        assertThat(again.dlqByClass()).isEqualTo(summary.dlqByClass());
        assertThat(jdbc().queryLong("SELECT count(*) FROM operations WHERE run_id LIKE 'live-%'")).isZero();
    }

    @Test
    void openingTheConsoleOnASeededSandbox_resumesItWithoutReseeding() {
        String seeded = "SELECT count(*) FROM operations WHERE run_id NOT LIKE 'live-%'";
        long before = jdbc().queryLong(seeded);
        long decisions = jdbc().queryLong("SELECT count(*) FROM redrive_commands");

        try (Sandbox console = Sandbox.openForConsole(ns.config(), Clock.systemUTC(), line -> { }, Trickle.DEFAULT)) {
            assertThat(console.lookupEndpoints()).containsKeys("demo.charge", "demo.ship", "demo.notify");
        }

        assertThat(jdbc().queryLong(seeded)).isEqualTo(before);
        assertThat(jdbc().queryLong("SELECT count(*) FROM redrive_commands")).isEqualTo(decisions);
    }

    @Test
    void theLiveWorkload_keepsDispatchingNewWork() {
        long before = jdbc().queryLong("SELECT count(*) FROM operations WHERE run_id LIKE 'live-%'");

        sandbox.startLiveWorkload(Trickle.DEFAULT);

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(jdbc().queryLong("SELECT count(*) FROM operations WHERE run_id LIKE 'live-%' AND status = 'SUCCEEDED'"))
                        .isGreaterThan(before));
    }

    @Test
    void theCheckoutCharge_isRefusedAsInvalidInput_andACorrectionOfItsAmountRunsOnce() {
        String operation = jdbc().queryOne("SELECT operation_id FROM dlq_entries WHERE run_id LIKE ? "
                + "AND error_class = 'INVALID_INPUT' AND decision_state = 'OPEN'", row -> row.getString(1),
                IncidentScenario.CHECKOUT_RUN_PREFIX + "%").orElseThrow();
        OperationId original = OperationId.parse(operation);
        String payload = jdbc().queryOne("SELECT payload::text FROM operations WHERE operation_id = ?",
                row -> row.getString(1), operation).orElseThrow();
        assertThat(payload).contains(" EUR\"");

        CorrectionResult corrected = TestCorrections.in(ns, ns.database()).correct(DecisionTarget.operation(operation),
                payload.replaceAll("\"amount\": \"([0-9.]+) EUR\"", "\"amount\": $1"), "ana", "amount sent as text");

        assertThat(corrected.outcome()).as(corrected.message()).isEqualTo(DecisionOutcome.DONE);
        OperationId correction = new OperationId(original.runId(), original.nodeId(), 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc().queryOne(
                "SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), correction.value())
                .orElse("").equals("SUCCEEDED"));
        assertThat(jdbc().queryLong("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key = ? AND http_status = 200",
                correction.idempotencyKey())).isEqualTo(1);
    }

    @Test
    void theLostPayoutsDiscard_waitsForASecondOperator_whileEveryOtherDecisionIsTakenAtOnce() {
        DecisionRequests requests = new DecisionRequests(ns.database(), DispatchPublisher.of(() ->
                new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC())), Redactor.defaults(), Clock.systemUTC(),
                Sleeper.SYSTEM);
        String payout = jdbc().queryOne("SELECT operation_id FROM dlq_entries WHERE run_id LIKE ? "
                + "AND decision_state = 'OPEN'", row -> row.getString(1), IncidentScenario.PAYOUTS_RUN_PREFIX + "%")
                .orElseThrow();

        FourEyesPolicy policy = requests.policy();
        assertThat(policy.enabled()).isTrue();
        assertThat(policy.tools()).containsExactly("demo.payout");
        assertThat(jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE tool = 'demo.payout'"))
                .as("the rule covers the lost payout's entry and no other").isEqualTo(1);
        String charge = jdbc().queryOne("SELECT operation_id FROM dlq_entries WHERE tool = 'demo.charge' "
                + "AND decision_state = 'OPEN' LIMIT 1", row -> row.getString(1)).orElseThrow();
        assertThat(requests.wouldWait(RequestKind.REDRIVE, List.of(DecisionTarget.operation(charge)))).isEmpty();

        assertThat(requests.countPending()).isEqualTo(1);
        DecisionRequest request = requests.pending().get(0);
        assertThat(request.kind()).isEqualTo(RequestKind.DISCARD);
        assertThat(request.targets()).extracting(DecisionTarget::operationId).containsExactly(payout);
        assertThat(request.requestedBy()).isEqualTo("dave");
        assertThat(request.coveredBy()).isEqualTo("four-eyes covers tool demo.payout");

        ApprovalResult own = requests.approve(request.id(), "dave");
        assertThat(own.outcome()).as(own.message()).isEqualTo(DecisionOutcome.REFUSED);
        assertThat(requests.countPending()).isEqualTo(1);

        ApprovalResult approved = requests.approve(request.id(), "bob");

        assertThat(approved.outcome()).as(approved.message()).isEqualTo(DecisionOutcome.DONE);
        assertThat(requests.find(request.id()).orElseThrow().state()).isEqualTo(RequestState.APPROVED);
        assertThat(jdbc().queryOne("SELECT decision_state || ' by ' || decided_by FROM dlq_entries WHERE operation_id = ?",
                row -> row.getString(1), payout)).contains("DISCARDED by bob");
        assertThat(requests.countPending()).isZero();
    }
}
