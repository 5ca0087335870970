package dev.redrive.triage.decision.verify;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestTool;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.decision.lookup.ToolSideEffectLookup;
import dev.redrive.triage.decision.verify.RedriveVerification.Verdict;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.worker.tool.EffectCount;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A redrive through the real worker and the demo tools: the operation runs once more, with the same identity. */
class RedriveEndToEndTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DemoChargeWorker worker;
    private static Decisions decisions;

    @BeforeAll
    static void workerWithTheDemoTools() {
        // The sweep waits as long as a worker's does by default.
        worker = new DemoChargeWorker(ns, "e2e-1", Duration.ofMinutes(5));
        decisions = new Decisions(ns.database(), worker.client(), Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        worker.close();
    }

    @Test
    void redrive_runsTheOperationOnceMoreWithAttemptPlusOneAndTheSameIdempotencyKey() {
        OperationId id = deadLettered("run-e2e", "charge-1");

        DecisionResult result = decisions.redrive(DecisionTarget.operation(id.value()), "alice", "permission granted meanwhile");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.DONE);
        worker.awaitStatus(id, "SUCCEEDED");
        assertThat(ns.jdbc().query("SELECT attempt || ' ' || outcome FROM attempts WHERE operation_id = ? ORDER BY attempt",
                row -> row.getString(1), id.value())).containsExactly("1 DEAD_LETTERED", "2 SUCCEEDED");
        assertThat(ns.jdbc().query("SELECT attempt || ' ' || http_status || ' ' || idempotency_key FROM demo_tool_calls WHERE operation_id = ? ORDER BY id",
                row -> row.getString(1), id.value()))
                .containsExactly("1 403 " + id.idempotencyKey(), "2 200 " + id.idempotencyKey());
        assertThat(worker.effectsFor(id)).isEqualTo(1);
        RedriveVerification verification = awaitVerdict(result);
        assertThat(verification.verdict()).isEqualTo(Verdict.SUCCEEDED_ONCE);
        assertThat(verification.effects()).isEqualTo(1);
    }

    @Test
    void theSameRedriveCommandDeliveredThreeTimes_runsOnce() {
        OperationId id = deadLettered("run-e2e", "charge-3");

        DecisionResult result = decisions.redrive(DecisionTarget.operation(id.value()), "alice", "permission granted meanwhile");
        Map<String, String> redrive = lastDispatch();
        assertThat(redrive.get("redrive_command_id")).isEqualTo(result.commandId().toString());
        ns.redis().sync().xadd(ns.redis().keys().dispatch(), new XAddArgs(), redrive);
        ns.redis().sync().xadd(ns.redis().keys().dispatch(), new XAddArgs(), redrive);

        worker.awaitStatus(id, "SUCCEEDED");
        await().atMost(Duration.ofSeconds(15)).until(() ->
                ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers").getCount() == 0);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key = ? AND http_status = 200",
                id.idempotencyKey())).isEqualTo(1);
        assertThat(worker.effectsFor(id)).isEqualTo(1);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM attempts WHERE operation_id = ? AND outcome = 'SUCCEEDED'", id.value()))
                .isEqualTo(1);
        assertThat(awaitVerdict(result).verdict()).isEqualTo(Verdict.SUCCEEDED_ONCE);
    }

    @Test
    void aToolThatCannotCount_isNotVerifiable_andOneThatCountsTwo_isDuplicated() {
        OperationId id = deadLettered("run-e2e", "charge-4");
        DecisionResult result = decisions.redrive(DecisionTarget.operation(id.value()), "alice", "permission granted meanwhile");
        awaitVerdict(result);

        RedriveVerification unverifiable = new RedriveVerifier(ns.database(), SideEffectLookup.none())
                .verify(result.commandId()).orElseThrow();
        assertThat(unverifiable.verdict()).isEqualTo(Verdict.SUCCEEDED_NOT_VERIFIABLE);
        assertThat(unverifiable.effects()).isNull();
        assertThat(unverifiable.explanation()).contains("exactly one successful attempt after the command")
                .contains("not verifiable for this tool");

        RedriveVerification twice = new RedriveVerifier(ns.database(), new ToolSideEffectLookup(List.of(countingTwice())))
                .verify(result.commandId()).orElseThrow();
        assertThat(twice.verdict()).isEqualTo(Verdict.DUPLICATED);
        assertThat(twice.effects()).isEqualTo(2);
        assertThat(twice.explanation()).contains("the tool counts 2 effect(s)");
    }

    /** demo.charge as a tool that says it applied the key's effect twice. */
    private static Tool countingTwice() {
        return new TestTool("demo.charge") {
            @Override
            public String execute(ToolCall call) {
                throw new UnsupportedOperationException("only counted here");
            }

            @Override
            public EffectCount countEffects(String idempotencyKey) {
                return EffectCount.counted(2, "counted twice for " + idempotencyKey);
            }
        };
    }

    /** A charge refused once with 403: PERMISSION is terminal, so it lands in the DLQ at attempt 1. */
    private static OperationId deadLettered(String run, String node) {
        OperationId id = new OperationId(run, node, 0);
        DispatchEnvelope envelope = worker.client().newDispatch(id, "demo.charge", "1", "{\"amount\":25,\"fault\":\"forbidden:1\"}",
                "trace-" + node, "corr-" + run, null);
        worker.client().dispatch(envelope);
        worker.awaitStatus(id, "DEAD_LETTERED");
        await().atMost(Duration.ofSeconds(10)).until(() ->
                ns.jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE operation_id = ? AND decision_state = 'OPEN'", id.value()) == 1);
        return id;
    }


    private static RedriveVerification awaitVerdict(DecisionResult result) {
        RedriveVerifier verifier = new RedriveVerifier(ns.database(), worker.lookup());
        return await().atMost(Duration.ofSeconds(10)).until(() -> verifier.verify(result.commandId()).orElseThrow(),
                verification -> verification.verdict() != Verdict.WAITING);
    }


    private static Map<String, String> lastDispatch() {
        List<StreamMessage<String, String>> last = ns.redis().sync().xrevrange(ns.redis().keys().dispatch(),
                Range.create("-", "+"), Limit.from(1));
        return last.get(0).getBody();
    }
}
