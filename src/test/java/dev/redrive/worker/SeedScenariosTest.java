package dev.redrive.worker;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.operation.RunStore;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.precondition.DecisionTarget;
import io.lettuce.core.XAddArgs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The seed note's "how to verify" table, against real PostgreSQL, Redis and the demo tools over HTTP. */
class SeedScenariosTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ChargeWorkerFixture charging = new ChargeWorkerFixture(ns, "seed-worker", Duration.ofSeconds(5));

    @Test
    void sameMessageRedeliveredThreeTimes_oneToolCallOneEffect() {
        DispatchEnvelope envelope = charging.kit().dispatch("redelivered", "charge", "{\"amount\":10}");
        charging.kit().client().publish(envelope);
        charging.kit().client().publish(envelope);
        OperationId id = envelope.operationId();

        charging.kit().awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> charging.kit().pendingEntries() == 0);

        assertThat(charging.kit().callsFor(id)).isEqualTo(1);
        assertThat(charging.kit().effectsFor(id)).isEqualTo(1);
        assertThat(charging.kit().count("SELECT count(*) FROM attempts WHERE operation_id = ?", id.value())).isEqualTo(1);
    }

    @Test
    void rateLimitedThenSuccess_sameOperationHigherAttemptDelayRespected() {
        DispatchEnvelope envelope = charging.kit().dispatch("limited", "charge", "{\"amount\":10,\"fault\":\"rate_limit:1:1\"}");
        OperationId id = envelope.operationId();

        charging.kit().awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(10));

        List<Map<String, Object>> attempts = charging.kit().jdbc().query("""
                SELECT attempt, outcome, error_class, finished_at, next_eligible_at, retry_after_ms
                  FROM attempts WHERE operation_id = ? ORDER BY attempt""", row -> {
            Map<String, Object> attempt = new LinkedHashMap<>();
            for (String column : List.of("attempt", "outcome", "error_class", "finished_at", "next_eligible_at",
                    "retry_after_ms")) {
                attempt.put(column, row.getObject(column));
            }
            return attempt;
        }, id.value());
        assertThat(attempts).extracting(a -> a.get("attempt")).containsExactly(1, 2);
        assertThat(attempts).extracting(a -> a.get("outcome")).containsExactly("RETRY_SCHEDULED", "SUCCEEDED");
        assertThat(attempts.get(0).get("error_class")).isEqualTo("RATE_LIMITED");
        assertThat(attempts.get(0).get("retry_after_ms")).isEqualTo(1000L);
        Instant failedAt = ((Timestamp) attempts.get(0).get("finished_at")).toInstant();
        Instant eligibleAt = ((Timestamp) attempts.get(0).get("next_eligible_at")).toInstant();
        assertThat(Duration.between(failedAt, eligibleAt)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));

        List<Instant> calls = charging.kit().jdbc().query("SELECT received_at FROM demo_tool_calls WHERE idempotency_key = ? ORDER BY id",
                row -> row.getTimestamp(1).toInstant(), id.idempotencyKey());
        assertThat(calls).hasSize(2);
        assertThat(Duration.between(calls.get(0), calls.get(1))).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(charging.kit().jdbc().query("SELECT DISTINCT operation_id FROM demo_tool_calls WHERE idempotency_key = ?",
                row -> row.getString(1), id.idempotencyKey())).containsExactly(id.value());
        assertThat(charging.kit().count("SELECT attempt FROM operations WHERE operation_id = ?", id.value())).isEqualTo(2);
    }

    @Test
    void invalidInput_deadLetteredAfterExactlyOneAttempt_noLoop() throws InterruptedException {
        DispatchEnvelope envelope = charging.kit().dispatch("invalid", "charge", "{\"amount\":10,\"fault\":\"invalid\"}");
        OperationId id = envelope.operationId();

        charging.kit().awaitStatus(id, "DEAD_LETTERED", Duration.ofSeconds(10));
        Thread.sleep(WorkerTestKit.LEASE.toMillis() + 500);

        assertThat(charging.kit().callsFor(id)).isEqualTo(1);
        assertThat(charging.kit().count("SELECT count(*) FROM attempts WHERE operation_id = ?", id.value())).isEqualTo(1);
        assertThat(charging.kit().jdbc().queryOne("""
                SELECT error_class || '/' || side_effect || '/' || jsonb_array_length(attempt_history) || '/' || trace_id
                  FROM dlq_entries WHERE operation_id = ?""", row -> row.getString(1), id.value()))
                .contains("INVALID_INPUT/NONE/1/trace-invalid");
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dlq())).isPositive();
        assertThat(charging.kit().pendingEntries()).isZero();
    }

    @Test
    void invalidEnvelope_deadLetteredWithRawMessage_ackedNeverRetried() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("v", "1");
        fields.put("run_id", "bad run!");
        fields.put("node_id", "n");
        fields.put("logical_attempt", "0");
        fields.put("payload", "{\"amount\":1}");
        String entryId = ns.redis().sync().xadd(ns.redis().keys().dispatch(), new XAddArgs(), fields);

        await().atMost(Duration.ofSeconds(10)).until(() ->
                charging.kit().count("SELECT count(*) FROM dlq_entries WHERE entry_id = ?", entryId) == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> charging.kit().pendingEntries() == 0);

        assertThat(charging.kit().jdbc().queryOne("SELECT error_class || ' ' || (raw_message->>'run_id') || ' ' || error_message FROM dlq_entries WHERE entry_id = ?",
                row -> row.getString(1), entryId).orElseThrow())
                .startsWith("INVALID_INPUT bad run! ").contains("run_id");
    }

    @Test
    void deadLetteredOperationWhoseRunWasCancelled_redriveDispatchIsAckedAndNothingRuns() {
        OperationId id = deadLetteredOnce("cancelled");

        DispatchEnvelope redrive = issueRedrive(id);
        UUID command = UUID.fromString(redrive.redriveCommandId());
        new RunStore(charging.kit().jdbc()).cancel(id.runId(), "customer withdrew the order", "test", Instant.now());
        charging.kit().client().publish(redrive);

        awaitWorkerAudited(command);

        assertThat(charging.kit().callsFor(id)).as("no second tool call").isEqualTo(1);
        assertThat(charging.kit().effectsFor(id)).isZero();
        assertThat(charging.kit().status(id)).isEqualTo(OperationStatus.CANCELLED.name());
        assertThat(charging.kit().jdbc().queryOne("SELECT status FROM redrive_commands WHERE command_id = ?", row -> row.getString(1), command))
                .contains("FAILED");
        assertThat(charging.kit().jdbc().queryOne("SELECT reason FROM audit_log WHERE actor = 'worker' AND command_id = ?", row -> row.getString(1), command))
                .contains("run cancelled is CANCELLED");
    }

    @Test
    void deadLetteredOperationRedrivenWithAValidCommand_runsOnceKeepsItsIdentityAndCompletesTheCommand() {
        OperationId id = deadLetteredOnce("redriven");

        DispatchEnvelope redrive = issueRedrive(id);
        UUID command = UUID.fromString(redrive.redriveCommandId());
        assertThat(redrive.attempt()).isEqualTo(2);
        charging.kit().client().publish(redrive);
        charging.kit().awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(10));
        charging.kit().client().publish(redrive);

        awaitWorkerAudited(command);
        assertThat(charging.kit().callsFor(id)).isEqualTo(2);
        assertThat(charging.kit().effectsFor(id)).isEqualTo(1);
        assertThat(charging.kit().jdbc().queryOne("SELECT status FROM redrive_commands WHERE command_id = ?", row -> row.getString(1), command))
                .contains("SUCCEEDED");
        assertThat(charging.kit().jdbc().query("SELECT attempt || '/' || outcome || '/' || coalesce(redrive_command_id::text, '-') FROM attempts WHERE operation_id = ? ORDER BY attempt",
                row -> row.getString(1), id.value())).containsExactly("1/DEAD_LETTERED/-", "2/SUCCEEDED/" + command);
        assertThat(charging.kit().jdbc().query("SELECT DISTINCT idempotency_key FROM demo_tool_calls WHERE operation_id = ?",
                row -> row.getString(1), id.value())).containsExactly(id.idempotencyKey());
    }

    /** A charge the tool refuses on its first call only, dispatched and dead-lettered: a redrive of it succeeds. */
    private static OperationId deadLetteredOnce(String run) {
        OperationId id = charging.kit().dispatch(run, "charge", "{\"amount\":10,\"fault\":\"invalid:1\"}").operationId();
        charging.kit().awaitStatus(id, "DEAD_LETTERED", Duration.ofSeconds(10));
        return id;
    }

    /** Waits until the worker has written its one audit line for the redrive command and acked every entry. */
    private static void awaitWorkerAudited(UUID command) {
        await().atMost(Duration.ofSeconds(10)).until(() -> charging.kit().count(
                "SELECT count(*) FROM audit_log WHERE actor = 'worker' AND command_id = ?", command) == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> charging.kit().pendingEntries() == 0);
    }

    /**
     * Issues a redrive the way an operator does, through triage's decisions (every precondition re-checked in the
     * transaction that records the command); the dispatch it would publish is kept back and returned.
     */
    private static DispatchEnvelope issueRedrive(OperationId id) {
        List<DispatchEnvelope> published = new ArrayList<>();
        DecisionResult result = new Decisions(ns.database(), envelope -> {
            published.add(envelope);
            return "0-0";
        }, Clock.systemUTC()).redrive(new DecisionTarget(id.value(), null, null, null), "ops", "fixed upstream");
        assertThat(result.outcome()).as(result.toString()).isEqualTo(DecisionOutcome.DONE);
        assertThat(published).hasSize(1);
        return published.get(0);
    }
}
