package dev.redrive.triage.decision.durable;

import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.testing.TestServers;
import dev.redrive.triage.BulkDeadLetters;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.WriteTurn;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.query.JdbcDlqQueries;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/** Durable batches against the real PostgreSQL and Redis: killed, resumed, raced, and re-run over decided items. */
class DurableBatchesTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Clock CLOCK = Clock.systemUTC();
    private static final Duration SHORT_LEASE = Duration.ofSeconds(2);

    @Test
    void aBatchKilledMidWay_andResumed_redrivesEveryItemExactlyOnce() throws Exception {
        BulkDeadLetters.create(ns.database(), "run-killed", "fp-killed", 2_000);
        DurableBatch batch = redriveGroup(batches(SHORT_LEASE), "fp-killed", 2_000);
        assertThat(batch.total()).isEqualTo(2_000);
        assertThat(batch.chunkSize()).isEqualTo(200);

        Path log = Files.createTempFile("redrive-batch-process", ".log");
        Process child = TestServers.pointedAtThem(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                BatchProcessMain.class.getName(), ns.name(), Long.toString(batch.id()),
                Long.toString(SHORT_LEASE.toMillis()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).directory(new File(System.getProperty("user.dir"))))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (done(batch.id()) < 400 && System.nanoTime() < deadline && child.isAlive()) {
            Thread.sleep(20);
        }
        assertThat(child.isAlive()).as(Files.readString(log)).isTrue();
        child.destroyForcibly();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

        DurableBatch killed = batches(SHORT_LEASE).find(batch.id()).orElseThrow();
        assertThat(killed.state()).isEqualTo(BatchState.RUNNING);
        assertThat(killed.done()).isBetween(400L, 1_999L);
        assertThat(count("SELECT count(*) FROM redrive_commands WHERE operation_id LIKE 'run-killed:%'")).isEqualTo(killed.succeeded());

        DurableBatches resumer = batches(SHORT_LEASE);
        assertThatThrownBy(() -> resumer.run(batch.id(), DurableBatchListener.NONE))
                .isInstanceOf(BatchHeldException.class).hasMessageContaining("is being run by");
        Thread.sleep(SHORT_LEASE.toMillis() + 200);
        DurableBatches.BatchRun resumed = resumer.run(batch.id(), DurableBatchListener.NONE);

        assertThat(resumed.batch().state()).isEqualTo(BatchState.DONE);
        assertThat(resumed.batch().done()).isEqualTo(2_000);
        assertThat(resumed.batch().succeeded()).isEqualTo(2_000);
        assertEveryItemOnce("run-killed", 2_000);
    }

    @Test
    void twoResumersAtOnce_oneRunsTheBatch_theOtherIsRefusedInOneLine() throws Exception {
        BulkDeadLetters.create(ns.database(), "run-race", "fp-race", 400);
        DurableBatches first = batches(DurableBatches.LEASE);
        DurableBatches second = batches(DurableBatches.LEASE);
        DurableBatch batch = redriveGroup(first, "fp-race", 200);
        CountDownLatch running = new CountDownLatch(1);
        CompletableFuture<DurableBatches.BatchRun> run = CompletableFuture.supplyAsync(
                () -> first.run(batch.id(), (done, total, result) -> running.countDown()));
        assertThat(running.await(60, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> second.run(batch.id(), DurableBatchListener.NONE))
                .isInstanceOf(BatchHeldException.class)
                .hasMessageStartingWith("batch " + batch.id() + " is being run by ")
                .hasMessageContaining("resume it once that process has stopped or its lease has run out");

        assertThat(second.stop(batch.id()).state()).isEqualTo(BatchState.STOPPED);
        DurableBatches.BatchRun stopped = run.get(60, TimeUnit.SECONDS);
        assertThat(stopped.batch().state()).isEqualTo(BatchState.STOPPED);
        assertThat(stopped.batch().done()).isLessThan(400);

        DurableBatches.BatchRun finished = second.run(batch.id(), DurableBatchListener.NONE);
        assertThat(finished.batch().state()).isEqualTo(BatchState.DONE);
        assertThatThrownBy(() -> first.run(batch.id(), DurableBatchListener.NONE))
                .isInstanceOf(BatchHeldException.class).hasMessage("batch " + batch.id() + " is done (400 items taken): "
                        + "nothing to resume");
        assertEveryItemOnce("run-race", 400);
    }

    @Test
    void stoppingAndResumingABatch_eachWritesOneAuditLine_underTheBatchsName_withTheLoginThatDidIt() {
        BulkDeadLetters.create(ns.database(), "run-audited", "fp-audited", 30);
        DurableBatches batches = batches(DurableBatches.LEASE);
        DurableBatch batch = redriveGroup(batches, "fp-audited", 100);
        DurableBatchListener stopAfterTheFirstChunk = new DurableBatchListener() {
            private boolean decided;

            @Override
            public void itemDone(int done, int total, DecisionResult result) {
                decided = true;
            }

            @Override
            public boolean stopRequested() {
                return decided;
            }
        };

        DurableBatches.BatchRun stopped = batches.run(batch.id(), stopAfterTheFirstChunk);
        assertThat(stopped.batch().state()).isEqualTo(BatchState.STOPPED);
        assertThat(batchLines(batch.id())).containsExactly("BATCH_STOPPED alice done=" + stopped.batch().done());

        DurableBatches.BatchRun resumed = batches.run(batch.id(), DurableBatchListener.NONE);
        assertThat(resumed.batch().state()).isEqualTo(BatchState.DONE);
        assertThat(batchLines(batch.id())).containsExactly("BATCH_STOPPED alice done=" + stopped.batch().done(),
                "BATCH_RESUMED alice done=" + stopped.batch().done() + " state_before=STOPPED");
        assertThat(count("SELECT count(*) FROM audit_log WHERE action LIKE 'BATCH_%' AND db_login = current_user "
                + "AND (details->>'batch_id')::bigint = ?", batch.id())).isEqualTo(2);
        assertEveryItemOnce("run-audited", 30);

        BulkDeadLetters.create(ns.database(), "run-audited-idle", "fp-audited-idle", 3);
        DurableBatch nobodyRunsIt = batches.start(DecisionKind.REDRIVE, BatchSelection.group("fp-audited-idle"),
                BatchOptions.of("bob", "ledger is back", 0));
        assertThat(batches.stop(nobodyRunsIt.id()).state()).isEqualTo(BatchState.STOPPED);
        assertThat(batches.stop(nobodyRunsIt.id()).state()).isEqualTo(BatchState.STOPPED);
        assertThat(batchLines(nobodyRunsIt.id())).containsExactly("BATCH_STOPPED bob done=0");
    }

    @Test
    void aBatchWhoseProgressWasLost_isResumedFromTheStart_andTheRecheckSkipsEveryItemDecidedBefore() {
        BulkDeadLetters.create(ns.database(), "run-again", "fp-again", 50);
        List<String> ids = ns.database().jdbc().query("SELECT operation_id FROM operations WHERE run_id = 'run-again' "
                + "ORDER BY operation_id", row -> row.getString(1));
        DurableBatches batches = batches(DurableBatches.LEASE);
        DurableBatch batch = redriveOperations(batches, ids, 0);
        assertThat(batches.run(batch.id(), DurableBatchListener.NONE).batch().succeeded()).isEqualTo(50);
        ns.database().jdbc().update("UPDATE redrive_batches SET state = 'STOPPED', position = NULL, done = 0, "
                + "succeeded = 0 WHERE id = ?", batch.id());

        DurableBatches.BatchRun again = batches.run(batch.id(), DurableBatchListener.NONE);

        assertThat(again.items()).hasSize(50).allSatisfy(item ->
                assertThat(item.outcome()).isEqualTo(DecisionOutcome.ALREADY_DECIDED));
        assertThat(again.batch().blocked()).isEqualTo(50);
        assertThat(again.batch().succeeded()).isZero();
        assertEveryItemOnce("run-again", 50);
    }

    @Test
    void aProcessThatDiedBetweenAChunksCommitAndItsPublishing_isPublishedByTheResume() {
        BulkDeadLetters.create(ns.database(), "run-unpublished", "fp-unpublished", 30);
        DispatchPublisher dying = envelope -> {
            throw new OutOfMemoryError("the process died right after the commit");
        };
        DurableBatches crashing = new DurableBatches(new Decisions(ns.database(), dying, CLOCK),
                new JdbcDlqQueries(ns.database()), CLOCK, Sleeper.SYSTEM, DurableBatches.LEASE);
        DurableBatch batch = redriveGroup(crashing, "fp-unpublished", 0);
        assertThatThrownBy(() -> crashing.run(batch.id(), DurableBatchListener.NONE)).isInstanceOf(IllegalStateException.class);
        assertThat(count("SELECT count(*) FROM redrive_commands WHERE operation_id LIKE 'run-unpublished:%'")).isEqualTo(30);
        long before = streamOf("run-unpublished").size();

        DurableBatches.BatchRun resumed = batches(DurableBatches.LEASE).run(batch.id(), DurableBatchListener.NONE);

        assertThat(before).isZero();
        assertThat(resumed.batch().state()).isEqualTo(BatchState.DONE);
        assertThat(resumed.batch().succeeded()).isEqualTo(30);
        assertEveryItemOnce("run-unpublished", 30);
    }

    @Test
    void anOperationListedInTwoChunksInFlight_isRedrivenOnce_andTheBatchNeverHangsOnItsOwnLocks() {
        BulkDeadLetters.create(ns.database(), "run-twice", "fp-twice", 1_500);
        List<String> ids = new java.util.ArrayList<>(ns.database().jdbc().query(
                "SELECT operation_id FROM operations WHERE run_id = 'run-twice' ORDER BY operation_id",
                row -> row.getString(1)));
        // The second chunk (items 1,000 on) starts with the first chunk's first operation: both chunks are in flight
        // at once and lock it, whichever gets there first; the first chunk may wait for the second's lock while the
        // second waits for its turn, until the second lets go (WriteTurn.LOCKED_WAIT).
        ids.add(1_000, ids.get(0));
        DurableBatches batches = batches(DurableBatches.LEASE);
        DurableBatch batch = redriveOperations(batches, ids, 0);

        DurableBatches.BatchRun run = CompletableFuture.supplyAsync(() -> batches.run(batch.id(), DurableBatchListener.NONE))
                .orTimeout(60, TimeUnit.SECONDS).join();

        assertThat(run.batch().state()).isEqualTo(BatchState.DONE);
        assertThat(run.items()).hasSize(1_501);
        assertThat(run.items().get(1_000).outcome()).isEqualTo(DecisionOutcome.ALREADY_DECIDED);
        assertThat(run.batch().succeeded()).isEqualTo(1_500);
        assertEveryItemOnce("run-twice", 1_500);
    }

    @Test
    void aChunkStartingWhereTheBatchIsNot_isNotTaken_andMovesNothing() {
        BulkDeadLetters.create(ns.database(), "run-position", "fp-position", 3);
        DurableBatches batches = batches(DurableBatches.LEASE);
        DurableBatch batch = redriveGroup(batches, "fp-position", 0);
        BatchStore store = new BatchStore(ns.database().jdbc());
        store.claim(batch.id(), "test-owner", DurableBatches.LEASE, CLOCK.instant()).orElseThrow();

        // As the chunk after one the database refused would: it starts from a position the batch never reached.
        assertThatThrownBy(() -> store.advance(batch.id(), "test-owner", DurableBatches.LEASE, "some-later-position",
                "even-later", 3, 3, 0, List.of())).isInstanceOf(WriteTurn.StoppedBeforeWriting.class);
        assertThatThrownBy(() -> store.advance(batch.id(), "another-owner", DurableBatches.LEASE, null, "later", 3, 3, 0,
                List.of())).isInstanceOf(BatchHeldException.class);

        DurableBatch now = batches.find(batch.id()).orElseThrow();
        assertThat(now.position()).isNull();
        assertThat(now.done()).isZero();
    }

    @Test
    void aBatchsTally_countsEveryItem_whileOnlyTheFirstItemsAreRead() {
        BulkDeadLetters.create(ns.database(), "run-tally", "fp-tally", 300);
        BulkDeadLetters.create(ns.database(), "run-tally-cancelled", "fp-tally", 50);
        ns.database().jdbc().update("UPDATE runs SET status = 'CANCELLED' WHERE run_id = 'run-tally-cancelled'");
        DurableBatches batches = batches(DurableBatches.LEASE);
        DurableBatch batch = redriveGroup(batches, "fp-tally", 100_000);
        batches.run(batch.id(), DurableBatchListener.NONE);
        BatchOutcomes outcomes = new BatchOutcomes(ns.database());

        BatchOutcomes.Report first = outcomes.of(batch.id(), 20).orElseThrow();

        assertThat(first.items()).hasSize(20);
        assertThat(first.tally().items()).isEqualTo(350);
        assertThat(first.counts()).containsExactly(entry(ItemOutcome.BLOCKED, 50L), entry(ItemOutcome.STILL_RUNNING, 300L));
        assertThat(first.tally().blockedBy()).containsExactly(entry("run_active", 50L));
        assertThat(first.summary()).isEqualTo("350 item(s): 50 blocked (run_active 50), 300 still running (the first 20 listed)");
        // The server's count follows the rule each item is told by.
        BatchOutcomes.Report all = outcomes.of(batch.id(), 1_000).orElseThrow();
        assertThat(all.items()).hasSize(350);
        assertThat(all.summary()).isEqualTo("350 item(s): 50 blocked (run_active 50), 300 still running");
        assertThat(all.items().stream().collect(Collectors.groupingBy(BatchOutcomes.Item::outcome,
                () -> new EnumMap<>(ItemOutcome.class), Collectors.counting()))).isEqualTo(all.counts());
    }

    @Test
    void aDiscardBatchsTally_countsItsItemsDiscarded() {
        BulkDeadLetters.create(ns.database(), "run-tally-discard", "fp-tally-discard", 40);
        DurableBatches batches = batches(DurableBatches.LEASE);
        DurableBatch batch = batches.start(DecisionKind.DISCARD, BatchSelection.group("fp-tally-discard"),
                BatchOptions.of("alice", "not needed", 100_000));
        batches.run(batch.id(), DurableBatchListener.NONE);

        BatchOutcomes.Report report = new BatchOutcomes(ns.database()).of(batch.id(), 10).orElseThrow();

        assertThat(report.items()).hasSize(10).allSatisfy(item -> assertThat(item.outcome()).isEqualTo(ItemOutcome.DISCARDED));
        assertThat(report.counts()).containsExactly(entry(ItemOutcome.DISCARDED, 40L));
        assertThat(report.summary()).isEqualTo("40 item(s): 40 discarded (the first 10 listed)");
    }

    /** One command, one audit line, one operation move and one dispatch per item: counted in the DB and the stream. */
    private static void assertEveryItemOnce(String runId, int items) {
        assertThat(count("SELECT count(*) FROM redrive_commands WHERE operation_id LIKE ?", runId + ":%")).isEqualTo(items);
        assertThat(count("SELECT count(DISTINCT operation_id) FROM redrive_commands WHERE operation_id LIKE ?",
                runId + ":%")).isEqualTo(items);
        assertThat(count("SELECT count(*) FROM audit_log WHERE action = 'REDRIVE' AND operation_id LIKE ?", runId + ":%"))
                .isEqualTo(items);
        assertThat(count("SELECT count(*) FROM operations WHERE run_id = ? AND status = 'PENDING' AND attempt = 4", runId))
                .isEqualTo(items);
        assertThat(count("SELECT count(*) FROM dlq_entries WHERE run_id = ? AND decision_state = 'REDRIVEN'", runId))
                .isEqualTo(items);
        List<StreamMessage<String, String>> dispatches = streamOf(runId);
        assertThat(dispatches).hasSize(items);
        assertThat(dispatches.stream().map(entry -> entry.getBody().get("operation_id")).distinct()).hasSize(items);
        assertThat(dispatches.stream().map(entry -> entry.getBody().get("redrive_command_id")).distinct()).hasSize(items);
    }

    /** The batch's audit lines, oldest first: "BATCH_RESUMED alice done=12 state_before=STOPPED". */
    private static List<String> batchLines(long id) {
        return ns.database().jdbc().query("""
                SELECT action || ' ' || actor || ' done=' || (details->>'done')
                       || COALESCE(' state_before=' || (details->>'state_before'), '')
                  FROM audit_log WHERE action LIKE 'BATCH_%' AND (details->>'batch_id')::bigint = ? ORDER BY id""",
                row -> row.getString(1), id);
    }

    private static List<StreamMessage<String, String>> streamOf(String runId) {
        return ns.redis().sync().xrange(ns.redis().keys().dispatch(), Range.create("-", "+")).stream()
                .filter(entry -> runId.equals(entry.getBody().get("run_id"))).toList();
    }

    private static long done(long id) {
        return count("SELECT done FROM redrive_batches WHERE id = ?", id);
    }

    private static long count(String sql, Object... params) {
        return ns.database().jdbc().queryLong(sql, params);
    }

    /** Starts alice's redrive of the group's open entries, with the reason every batch here gives, at the pace given. */
    private static DurableBatch redriveGroup(DurableBatches batches, String fingerprint, double itemsPerSecond) {
        return batches.start(DecisionKind.REDRIVE, BatchSelection.group(fingerprint),
                BatchOptions.of("alice", "ledger is back", itemsPerSecond));
    }

    /** The same for operations named one by one. */
    private static DurableBatch redriveOperations(DurableBatches batches, List<String> ids, double itemsPerSecond) {
        return batches.start(DecisionKind.REDRIVE, BatchSelection.operations(ids),
                BatchOptions.of("alice", "ledger is back", itemsPerSecond));
    }

    private static DurableBatches batches(Duration lease) {
        Decisions decisions = TestDecisions.of(ns, CLOCK);
        return new DurableBatches(decisions, new JdbcDlqQueries(ns.database()), CLOCK, Sleeper.SYSTEM, lease);
    }

}
