package dev.redrive.triage.decision.batch;

import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.query.JdbcDlqQueries;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** A batch decides its items a chunk at a time: one transaction and one publish per chunk, each item on its own merits. */
class ChunkedBatchTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DeadLetterFixture fixture;
    private static Decisions decisions;
    private static BatchDecisions batch;

    @BeforeAll
    static void services() {
        fixture = DeadLetterFixture.withChargeTool(ns.database());
        decisions = TestDecisions.of(ns);
        batch = new BatchDecisions(decisions, new JdbcDlqQueries(ns.database()), Clock.systemUTC(), Sleeper.SYSTEM);
    }

    @Test
    void aChunkOfPassingAndBlockedItems_eachGetsItsOutcome_thePassingOnesInOneTransactionWithOneDispatchEach() {
        List<Created> passing = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            passing.add(fixture.deadLettered("run-mix", "ok-" + i).create());
        }
        Created cancelled = fixture.deadLettered("run-mix-gone", "charge").create();
        fixture.cancelRun("run-mix-gone");
        Created uncertain = fixture.deadLettered("run-mix", "uncertain").errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).create();
        Created decidedBefore = fixture.deadLettered("run-mix", "decided").create();
        decisions.discard(DecisionTarget.operation(decidedBefore.operationId()), "bob", "duplicate");
        long withoutOperation = ns.jdbc().queryLong("""
                INSERT INTO dlq_entries (dedup_key, error_class, error_code, error_message, error_fingerprint, side_effect,
                                         raw_message)
                VALUES ('msg:mix-legacy', 'INVALID_INPUT', 'invalid_envelope', 'tool is missing', 'fp-legacy', 'NONE',
                        '{"node_id": "legacy"}') RETURNING id""");
        List<DecisionTarget> targets = new ArrayList<>();
        targets.add(DecisionTarget.operation(passing.get(0).operationId()));
        targets.add(DecisionTarget.operation(cancelled.operationId()));
        targets.add(DecisionTarget.entry(passing.get(1).dlqEntryId()));
        targets.add(DecisionTarget.operation(uncertain.operationId()));
        targets.add(DecisionTarget.operation(passing.get(2).operationId()));
        targets.add(DecisionTarget.operation("run-mix:typo:0"));
        targets.add(DecisionTarget.operation(decidedBefore.operationId()));
        targets.add(DecisionTarget.entry(withoutOperation));
        targets.add(DecisionTarget.operation(passing.get(3).operationId()));
        targets.add(DecisionTarget.entry(passing.get(3).dlqEntryId()));
        targets.add(DecisionTarget.operation(passing.get(4).operationId()));
        long streamBefore = streamLength();

        BatchReport report = batch.redrive(targets, BatchOptions.of("alice", "ledger is back", 0), BatchListener.NONE);

        assertThat(report.items()).extracting(DecisionResult::outcome).containsExactly(
                DecisionOutcome.DONE, DecisionOutcome.BLOCKED, DecisionOutcome.DONE, DecisionOutcome.BLOCKED,
                DecisionOutcome.DONE, DecisionOutcome.BLOCKED, DecisionOutcome.ALREADY_DECIDED, DecisionOutcome.BLOCKED,
                DecisionOutcome.DONE, DecisionOutcome.ALREADY_DECIDED, DecisionOutcome.DONE);
        assertThat(report.items().get(1).preconditions().failed()).extracting(r -> r.id()).containsExactly(PreconditionId.RUN_ACTIVE);
        assertThat(report.items().get(3).preconditions().failed()).extracting(r -> r.id()).containsExactly(PreconditionId.SIDE_EFFECT);
        assertThat(report.items().get(5).message()).contains("run-mix:typo:0");
        assertThat(report.items().get(6).message()).startsWith("already decided by bob at ");
        assertThat(report.items().get(7).preconditions().failed()).extracting(r -> r.id()).containsExactly(PreconditionId.OWN_OPERATION);
        assertThat(report.items().get(9).message()).contains("listed twice");

        List<String> redriven = passing.stream().map(Created::operationId).toList();
        Map<String, List<StreamMessage<String, String>>> dispatches = dispatchesSince(streamBefore);
        assertThat(dispatches).containsOnlyKeys(redriven);
        for (Created item : passing) {
            DecisionResult result = report.items().stream().filter(r -> item.operationId().equals(r.operationId())
                    && r.outcome() == DecisionOutcome.DONE).findFirst().orElseThrow();
            assertThat(dispatches.get(item.operationId())).singleElement().satisfies(dispatch -> {
                assertThat(dispatch.getBody()).containsEntry("redrive_command_id", result.commandId().toString())
                        .containsEntry("attempt", Integer.toString(item.attempt() + 1));
            });
            assertThat(ns.jdbc().queryOne("SELECT status || ' ' || attempt || ' ' || redrive_command_id FROM operations WHERE operation_id = ?",
                    row -> row.getString(1), item.operationId())).contains("PENDING " + (item.attempt() + 1) + " " + result.commandId());
            assertThat(ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE dlq_entry_id = ? AND action = 'REDRIVE' AND command_id = ?",
                    item.dlqEntryId(), result.commandId())).isEqualTo(1);
            // The audit line carries the command's precondition verdicts as JSON, every check with its verdict.
            assertThat(ns.jdbc().queryOne("""
                    SELECT jsonb_array_length(c.preconditions) || ' ' || (a.details -> 'preconditions' = c.preconditions)
                           || ' ' || (c.preconditions -> 0 ->> 'passed')
                      FROM audit_log a JOIN redrive_commands c ON c.command_id = a.command_id
                     WHERE a.command_id = ? AND a.action = 'REDRIVE'""", row -> row.getString(1), result.commandId()))
                    .contains(result.preconditions().results().size() + " true true");
        }
        // One chunk, one transaction: every row it wrote carries the same transaction id.
        assertThat(ns.jdbc().query("""
                SELECT xmin::text FROM redrive_commands WHERE operation_id = ANY (?)
                UNION SELECT xmin::text FROM audit_log WHERE action = 'REDRIVE' AND operation_id = ANY (?)
                UNION SELECT xmin::text FROM dlq_entries WHERE operation_id = ANY (?) AND decision_state = 'REDRIVEN'
                UNION SELECT xmin::text FROM operations WHERE operation_id = ANY (?)""", row -> row.getString(1),
                array(redriven), array(redriven), array(redriven), array(redriven))).hasSize(1);
        for (Created blocked : List.of(cancelled, uncertain)) {
            assertThat(ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE operation_id = ?", blocked.operationId())).isZero();
            assertThat(ns.jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?", row -> row.getString(1),
                    blocked.dlqEntryId())).contains("OPEN");
        }
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE dlq_entry_id = ?", withoutOperation)).isZero();
    }

    @Test
    void aGroupDiscardedInChunks_recordsEveryItemOnceWithItsAuditLine() {
        for (int i = 0; i < 7; i++) {
            fixture.deadLettered("run-discard", "item-" + i).fingerprint("fp-discard-chunks").create();
        }
        List<DecisionTarget> group = batch.group("fp-discard-chunks").targets();

        BatchReport report = batch.discard(group, BatchOptions.of("carol", "superseded", 20), BatchListener.NONE);

        assertThat(report.count(DecisionOutcome.DONE)).isEqualTo(7);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM operations WHERE run_id = 'run-discard' AND status = 'DISCARDED'")).isEqualTo(7);
        assertThat(ns.jdbc().queryLong("""
                SELECT count(*) FROM audit_log a JOIN dlq_entries e ON e.id = a.dlq_entry_id
                 WHERE e.error_fingerprint = 'fp-discard-chunks' AND a.action = 'DISCARD' AND e.decision_state = 'DISCARDED'""")).isEqualTo(7);
        // At 20 items per second a chunk holds two items: four transactions.
        assertThat(ns.jdbc().queryLong("SELECT count(DISTINCT xmin::text) FROM operations WHERE run_id = 'run-discard'")).isEqualTo(4);
    }

    @RepeatedTest(3)
    void aSingleDecisionRacingTheChunkThatHoldsItsItem_exactlyOneWins() throws Exception {
        List<Created> items = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            items.add(fixture.deadLettered("run-race-chunk-" + System.nanoTime(), "item-" + i).create());
        }
        Created contested = items.get(3);
        long streamBefore = streamLength();
        CompletableFuture<BatchReport> batchRun;
        CompletableFuture<DecisionResult> single;
        // Both wait for the contested operation's lock, held here, so that they really meet at that row.
        try (Connection holder = ns.database().connection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT 1 FROM operations WHERE operation_id = ? FOR UPDATE")) {
                lock.setString(1, contested.operationId());
                lock.executeQuery().close();
            }
            CountDownLatch started = new CountDownLatch(2);
            batchRun = CompletableFuture.supplyAsync(() -> {
                started.countDown();
                return batch.redrive(items.stream().map(item -> DecisionTarget.operation(item.operationId())).toList(),
                        BatchOptions.of("alice", "all at once", 0), BatchListener.NONE);
            });
            single = CompletableFuture.supplyAsync(() -> {
                started.countDown();
                return decisions.discard(DecisionTarget.operation(contested.operationId()), "bob", "duplicate");
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(300);
            holder.commit();
        }
        BatchReport report = batchRun.get(60, TimeUnit.SECONDS);
        DecisionResult discard = single.get(60, TimeUnit.SECONDS);

        DecisionResult inBatch = report.items().get(3);
        assertThat(List.of(inBatch.recorded(), discard.recorded())).containsExactlyInAnyOrder(true, false);
        DecisionResult loser = inBatch.recorded() ? discard : inBatch;
        assertThat(loser.outcome()).isEqualTo(DecisionOutcome.ALREADY_DECIDED);
        assertThat(report.items()).filteredOn(item -> item != inBatch).allMatch(item -> item.outcome() == DecisionOutcome.DONE);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE dlq_entry_id = ? AND action IN ('REDRIVE', 'DISCARD')",
                contested.dlqEntryId())).isEqualTo(1);
        assertThat(dispatchesSince(streamBefore).getOrDefault(contested.operationId(), List.of()))
                .hasSize(inBatch.recorded() ? 1 : 0);
        assertThat(dispatchesSince(streamBefore)).hasSize(inBatch.recorded() ? 6 : 5);
    }

    @Test
    void stoppedMidBatch_everyItemIsEitherFullyDecidedOrUntouched() {
        List<Created> items = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            items.add(fixture.deadLettered("run-stop", "item-" + i).fingerprint("fp-stop").create());
        }
        List<DecisionTarget> group = batch.group("fp-stop").targets();
        long streamBefore = streamLength();
        AtomicBoolean stop = new AtomicBoolean();
        BatchListener stopAfterEleven = new BatchListener() {
            @Override
            public void itemDone(int done, int total, DecisionResult result) {
                stop.compareAndSet(false, done >= 11);
            }

            @Override
            public boolean stopRequested() {
                return stop.get();
            }
        };

        // 40 per second: chunks of 4. The stop is asked for once the third chunk is reported; the fourth, started
        // beside it, rolls back untouched unless it had its turn to write already.
        BatchReport report = batch.redrive(group, BatchOptions.of("alice", "stopped halfway", 40), stopAfterEleven);

        assertThat(report.items()).hasSizeBetween(12, 16).allMatch(item -> item.outcome() == DecisionOutcome.DONE);
        assertThat(report.items().size() % 4).isZero();
        assertEveryItemDecidedOrUntouched(items, streamBefore, report.items().size());
    }

    @Test
    void interruptedWhileWaitingForItsPace_theBatchStopsBetweenChunks() throws Exception {
        List<Created> items = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            items.add(fixture.deadLettered("run-interrupt", "item-" + i).fingerprint("fp-interrupt").create());
        }
        List<DecisionTarget> group = batch.group("fp-interrupt").targets();
        long streamBefore = streamLength();
        List<BatchReport> reports = new ArrayList<>();
        Thread runner = new Thread(() -> reports.add(batch.redrive(group, BatchOptions.of("alice", "interrupted", 20),
                BatchListener.NONE)));
        runner.start();
        Thread.sleep(700);
        runner.interrupt();
        runner.join(60_000);

        assertThat(runner.isAlive()).isFalse();
        int decided = reports.get(0).items().size();
        assertThat(decided).isBetween(1, 39);
        assertThat(reports.get(0).items()).allMatch(item -> item.outcome() == DecisionOutcome.DONE);
        assertEveryItemDecidedOrUntouched(items, streamBefore, decided);
    }

    /** Decided: entry, operation, command, audit line and dispatch all there. Untouched: none of them. */
    private static void assertEveryItemDecidedOrUntouched(List<Created> items, long streamBefore, int expectedDecided) {
        Map<String, List<StreamMessage<String, String>>> dispatches = dispatchesSince(streamBefore);
        int decided = 0;
        for (Created item : items) {
            String entry = ns.jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?", row -> row.getString(1),
                    item.dlqEntryId()).orElseThrow();
            String operation = ns.jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1),
                    item.operationId()).orElseThrow();
            long commands = ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id = ?", item.operationId());
            long audit = ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE operation_id = ?", item.operationId());
            int published = dispatches.getOrDefault(item.operationId(), List.of()).size();
            if (entry.equals("REDRIVEN")) {
                decided++;
                assertThat(List.of(operation, commands, audit, published)).as(item.operationId())
                        .containsExactly("PENDING", 1L, 1L, 1);
            } else {
                assertThat(List.of(entry, operation, commands, audit, published)).as(item.operationId())
                        .containsExactly("OPEN", "DEAD_LETTERED", 0L, 0L, 0);
            }
        }
        assertThat(decided).isEqualTo(expectedDecided);
    }

    private static Map<String, List<StreamMessage<String, String>>> dispatchesSince(long streamBefore) {
        List<StreamMessage<String, String>> all = ns.redis().sync().xrange(ns.redis().keys().dispatch(), Range.create("-", "+"));
        return all.subList((int) streamBefore, all.size()).stream()
                .collect(Collectors.groupingBy(message -> message.getBody().get("operation_id"), Collectors.mapping(Function.identity(), Collectors.toList())));
    }

    private static long streamLength() {
        return ns.redis().sync().xlen(ns.redis().keys().dispatch());
    }

    private static String[] array(List<String> values) {
        return values.toArray(String[]::new);
    }
}
