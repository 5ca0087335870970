package dev.redrive.triage.query;

import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.health.DlqFixture;
import dev.redrive.model.DecisionState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.precondition.DecisionTarget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * dlq_summary, kept by triggers, always says what aggregating the entries says: after a bulk load, decisions (the
 * first and last entry of a cell included), deletes, and writers and deciders racing each other.
 */
class DlqSummaryTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Instant NOW = Instant.parse("2026-11-30T00:00:00Z");
    private static final String SUMMARY = """
            SELECT error_fingerprint, error_class, tool, decision_state, entries, first_seen, last_seen
              FROM dlq_summary WHERE entries > 0
             ORDER BY error_fingerprint, error_class, tool, decision_state""";
    private static final String AGGREGATED = """
            SELECT error_fingerprint, error_class, coalesce(tool, ''), decision_state, count(*), min(entered_at),
                   max(entered_at)
              FROM dlq_entries
             GROUP BY error_fingerprint, error_class, coalesce(tool, ''), decision_state
             ORDER BY 1, 2, 3, 4""";


    @BeforeAll
    static void generated() {
        new DlqGenerator(ns.database(), Clock.fixed(NOW, ZoneOffset.UTC)).generate(3_000, "sum");
    }

    @Test
    void generatedEntries_areSummarizedPerCell() {
        assertSummaryIsTheAggregate();
        assertThat(ns.jdbc().queryLong("SELECT sum(entries) FROM dlq_summary")).isEqualTo(ns.jdbc().queryLong("SELECT count(*) FROM dlq_entries"));
    }

    @Test
    void decidingTheFirstAndTheLastEntryOfACell_movesItsBoundsToTheEntriesNextInLine() {
        String fingerprint = ns.jdbc().queryOne("SELECT error_fingerprint FROM dlq_summary WHERE decision_state = 'OPEN' ORDER BY entries DESC LIMIT 1",
                row -> row.getString(1)).orElseThrow();
        String newestOpen = "SELECT id FROM dlq_entries WHERE error_fingerprint = ? AND decision_state = 'OPEN' ORDER BY entered_at DESC, id DESC LIMIT 1";
        String oldestOpen = "SELECT id FROM dlq_entries WHERE error_fingerprint = ? AND decision_state = 'OPEN' ORDER BY entered_at, id LIMIT 1";

        decide(ns.jdbc().queryLong(newestOpen, fingerprint), "DISCARDED");
        decide(ns.jdbc().queryLong(oldestOpen, fingerprint), "RESOLVED");
        assertSummaryIsTheAggregate();

        ns.jdbc().update("UPDATE dlq_entries SET decision_state = 'REDRIVEN', version = version + 1 WHERE error_fingerprint = ? AND decision_state = 'OPEN'",
                fingerprint);
        assertSummaryIsTheAggregate();
        assertThat(ns.jdbc().query("SELECT first_seen, last_seen FROM dlq_summary WHERE error_fingerprint = ? AND decision_state = 'OPEN'",
                row -> row.getObject(1) == null && row.getObject(2) == null, fingerprint)).containsOnly(true);
        assertThat(new JdbcDlqQueries(ns.database()).groups(DlqFilter.builder().decisionState(DecisionState.OPEN).build()))
                .extracting(FingerprintGroup::fingerprint).doesNotContain(fingerprint);
    }

    @Test
    void aDecisionThroughTheTriageCore_movesItsEntryToItsNewCell() {
        DeadLetterFixture fixture = new DeadLetterFixture(ns.database());
        DeadLetterFixture.Created created = fixture.deadLettered("run-core", "charge-1").fingerprint("fp-core").create();
        Decisions decisions = TestDecisions.of(ns);

        decisions.discard(new DecisionTarget(created.operationId(), created.dlqEntryId(), 0, null), "alice", "duplicate");

        assertSummaryIsTheAggregate();
        assertThat(ns.jdbc().queryLong("SELECT entries FROM dlq_summary WHERE error_fingerprint = 'fp-core' AND decision_state = 'DISCARDED'"))
                .isEqualTo(1);
    }

    @Test
    void deletedEntries_leaveTheirCells() {
        DlqFixture.insert(ns.database(), "run-gone", 30, "TRANSIENT", "demo.charge", "fp-gone", "NONE", "OPEN", NOW);
        ns.jdbc().update("DELETE FROM dlq_entries WHERE run_id = 'run-gone' AND node_id IN ('node-1', 'node-30')");
        assertSummaryIsTheAggregate();

        ns.jdbc().update("DELETE FROM dlq_entries WHERE run_id = 'run-gone'");
        assertSummaryIsTheAggregate();
    }

    @Test
    void writersAndDecidersRacing_leaveTheSummaryExact() throws Exception {
        int rounds = 40;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int writer = 0; writer < 3; writer++) {
                String run = "race-w" + writer;
                work.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        // Newer than every entry so far: each insert moves the last_seen of its cell.
                        DlqFixture.insert(ns.database(), run + "-" + i, 5, "RATE_LIMITED", "demo.charge", "fp-race-" + (i % 2),
                                "NONE", "OPEN", Instant.now());
                    }
                    return null;
                }));
            }
            for (int decider = 0; decider < 3; decider++) {
                String state = decider == 0 ? "DISCARDED" : decider == 1 ? "RESOLVED" : "REDRIVEN";
                work.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        String fingerprint = "fp-race-" + ThreadLocalRandom.current().nextInt(2);
                        // The newest open entry of the cell: the decision that makes its bounds be looked up again.
                        ns.jdbc().inTransaction(() -> ns.jdbc().update("""
                                UPDATE dlq_entries SET decision_state = ?, version = version + 1
                                 WHERE id = (SELECT id FROM dlq_entries WHERE error_fingerprint = ? AND decision_state = 'OPEN'
                                              ORDER BY entered_at DESC, id DESC LIMIT 1 FOR UPDATE SKIP LOCKED)""",
                                state, fingerprint));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> done : work) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertSummaryIsTheAggregate();
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE error_fingerprint LIKE 'fp-race-%' AND decision_state <> 'OPEN'"))
                .isPositive();
    }

    private static void decide(long entryId, String state) {
        ns.jdbc().update("UPDATE dlq_entries SET decision_state = ?, version = version + 1 WHERE id = ?", state, entryId);
    }

    private static void assertSummaryIsTheAggregate() {
        assertThat(rows(SUMMARY)).isEqualTo(rows(AGGREGATED));
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM dlq_summary WHERE entries = 0 AND (first_seen IS NOT NULL OR last_seen IS NOT NULL)"))
                .isZero();
    }

    private static List<String> rows(String sql) {
        return ns.jdbc().query(sql, row -> String.join("|", row.getString(1), row.getString(2), row.getString(3), row.getString(4),
                Long.toString(row.getLong(5)), row.getTimestamp(6).toInstant().toString(),
                row.getTimestamp(7).toInstant().toString()));
    }
}
