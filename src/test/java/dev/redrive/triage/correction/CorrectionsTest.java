package dev.redrive.triage.correction;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Corrections against the real stores, a real worker and the demo tools. */
class CorrectionsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DemoChargeWorker worker;
    private static WorkerClient client;
    private static Corrections corrections;

    @BeforeAll
    static void workerWithTheDemoTools() {
        worker = new DemoChargeWorker(ns, "corrections-1", Duration.ofSeconds(2));
        client = worker.client();
        corrections = new Corrections(ns.database(), client::publish, Redactor.defaults(), Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        worker.close();
    }

    @Test
    void twoOperatorsCorrectingAtOnce_exactlyOneWins() throws Exception {
        OperationId original = deadLettered("run-race", "{\"amount\":-1,\"fault\":\"invalid\"}");
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<CorrectionResult>> attempts = List.of("alice", "bob").stream()
                .map(operator -> CompletableFuture.supplyAsync(() -> {
                    awaitLatch(start);
                    return corrections.correct(DecisionTarget.operation(original.value()), "{\"amount\":1}", operator,
                            operator + " fixes the amount");
                })).toList();
        start.countDown();
        List<DecisionOutcome> outcomes = attempts.stream().map(CompletableFuture::join).map(CorrectionResult::outcome).toList();

        assertThat(outcomes).containsExactlyInAnyOrder(DecisionOutcome.DONE, DecisionOutcome.ALREADY_DECIDED);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM operations WHERE corrects = ?", original.value())).isEqualTo(1);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE operation_id = ? AND action = 'CORRECT'",
                original.value())).isEqualTo(1);
        OperationId correction = new OperationId("run-race", "charge", 1);
        worker.awaitStatus(correction, "SUCCEEDED");
        assertThat(worker.callsFor(correction)).isEqualTo(1);
    }

    @Test
    void aMaskedSecret_keepsItsStoredValue_andTheAuditDiffNeverHoldsIt() {
        OperationId original = deadLettered("run-secret",
                "{\"amount\":-2,\"password\":\"s3cret-pw\",\"fault\":\"invalid\"}");

        CorrectionResult result = corrections.correct(DecisionTarget.operation(original.value()),
                "{\"amount\":2,\"password\":\"" + Redactor.MASK + "\"}", "alice", "amount fixed, password as it was");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.DONE);
        OperationId correction = OperationId.parse(result.correctionId());
        worker.awaitStatus(correction, "SUCCEEDED");
        assertThat(ns.jdbc().queryOne("SELECT payload->>'password' FROM operations WHERE operation_id = ?",
                row -> row.getString(1), correction.value())).contains("s3cret-pw");
        assertThat(ns.jdbc().query("SELECT body->>'password' FROM demo_tool_calls WHERE idempotency_key = ?",
                row -> row.getString(1), correction.idempotencyKey())).containsExactly("s3cret-pw");
        String audit = ns.jdbc().queryOne("SELECT details::text FROM audit_log WHERE operation_id = ? AND action = 'CORRECT'",
                row -> row.getString(1), original.value()).orElseThrow();
        assertThat(audit).contains("/amount").doesNotContain("s3cret-pw");
    }

    @Test
    void aChangedSecret_isSentAsTyped_andMaskedInTheDiff() {
        OperationId original = deadLettered("run-new-secret", "{\"amount\":-3,\"token\":\"old-token\",\"fault\":\"invalid\"}");

        CorrectionResult result = corrections.correct(DecisionTarget.operation(original.value()),
                "{\"amount\":3,\"token\":\"new-token\"}", "alice", "new token");

        assertThat(result.diff().lines()).contains("changed /token: \"" + Redactor.MASK + "\" → \"" + Redactor.MASK + "\"");
        assertThat(ns.jdbc().queryOne("SELECT payload->>'token' FROM operations WHERE operation_id = ?",
                row -> row.getString(1), result.correctionId())).contains("new-token");
        assertThat(ns.jdbc().queryOne("SELECT details::text FROM audit_log WHERE operation_id = ? AND action = 'CORRECT'",
                row -> row.getString(1), original.value()).orElseThrow()).doesNotContain("old-token").doesNotContain("new-token");
    }

    @Test
    void theMaskWhereTheOriginalHasNoValue_isRefused() {
        OperationId original = deadLettered("run-no-secret", "{\"amount\":-4,\"fault\":\"invalid\"}");

        CorrectionResult result = corrections.correct(DecisionTarget.operation(original.value()),
                "{\"amount\":4,\"api_key\":\"" + Redactor.MASK + "\"}", "alice", "add a key");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.BLOCKED);
        assertThat(result.preconditions().result(PreconditionId.CORRECTED_PAYLOAD).explanation())
                .contains("/api_key").contains("no value to keep");
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM operations WHERE corrects = ?", original.value())).isZero();
    }

    @Test
    void aPossibleSideEffect_blocksTheCorrectionAsItBlocksARedrive() {
        OperationId original = deadLettered("run-possible", "{\"amount\":-5,\"fault\":\"invalid\"}");
        ns.jdbc().update("UPDATE operations SET side_effect = 'POSSIBLE' WHERE operation_id = ?", original.value());

        CorrectionResult result = corrections.correct(DecisionTarget.operation(original.value()), "{\"amount\":5}",
                "alice", "fix");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.BLOCKED);
        assertThat(result.preconditions().result(PreconditionId.SIDE_EFFECT).passed()).isFalse();
        assertThat(ns.jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1),
                original.value())).contains("DEAD_LETTERED");
    }

    @Test
    void aLostPublish_isRecorded_andTheSweepPublishesTheCorrection() {
        OperationId original = deadLettered("run-lost", "{\"amount\":-6,\"fault\":\"invalid\"}");
        Corrections offline = new Corrections(ns.database(), envelope -> {
            throw new IllegalStateException("Redis went away");
        }, Redactor.defaults(), Clock.systemUTC());

        CorrectionResult result = offline.correct(DecisionTarget.operation(original.value()), "{\"amount\":6}", "alice", "fix");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.NOT_PUBLISHED);
        OperationId correction = OperationId.parse(result.correctionId());
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> "SUCCEEDED".equals(worker.status(correction)));
        assertThat(worker.callsFor(correction)).isEqualTo(1);
    }

    private static OperationId deadLettered(String run, String payload) {
        OperationId id = new OperationId(run, "charge", 0);
        client.dispatch(client.newDispatch(id, "demo.charge", "1", payload, null, null, null));
        worker.awaitStatus(id, "DEAD_LETTERED");
        await().atMost(Duration.ofSeconds(10)).until(() -> ns.jdbc().queryLong(
                "SELECT count(*) FROM dlq_entries WHERE operation_id = ? AND decision_state = 'OPEN'", id.value()) == 1);
        return id;
    }




    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
