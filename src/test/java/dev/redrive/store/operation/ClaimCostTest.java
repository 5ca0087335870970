package dev.redrive.store.operation;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Jdbc;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a claim reads does not grow with the history of other operations. The claim looks up each operation's newest
 * attempt row; without an index for that, PostgreSQL walked every attempt row of the table backwards for an operation
 * that has none (every new one), and claims slowed down as the soak went on until they fell behind the dispatches.
 * The history here has the shape the planner saw in the soak (about 25 attempt rows per operation, as it estimated
 * there), where it chose that walk.
 * <p>
 * A claim is a HOT update (V250): no indexed column changes from PENDING to RUNNING and the page has room for the new
 * row version, so the worker's first write of an attempt touches no index. The stranded sweep reads the index of the
 * operations in flight, not the finished ones.
 * <p>
 * Counted with the transaction's own statistics, which PostgreSQL keeps exactly: no timing.
 */
class ClaimCostTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");
    private static final int OTHERS = 400;
    private static final int ATTEMPTS_EACH = 25;
    private static final int BATCH = 64;
    private static final int FINISHED = 2000;

    private final Jdbc jdbc = ns.database().jdbc();

    @Test
    void claimingANewOperation_readsNoAttemptRowsOfOthers() {
        new OperationRegistry(jdbc).recordAll(IntStream.range(0, OTHERS)
                .mapToObj(i -> envelope(new OperationId("history", "n" + i, 0))).toList(), any -> OperationStatus.SUCCEEDED);
        jdbc.update("""
                INSERT INTO attempts (operation_id, attempt, delivery_id, started_at, outcome)
                SELECT o.operation_id, n, n || '-0', ?, 'RETRY_SCHEDULED'
                  FROM operations o, generate_series(1, ?) n""", T0, ATTEMPTS_EACH);
        jdbc.update("ANALYZE attempts");
        OperationId fresh = new OperationId("fresh", "n", 0);
        new OperationRegistry(jdbc).record(envelope(fresh), OperationStatus.PENDING);

        long attemptRowsRead = jdbc.inTransaction(() -> {
            long before = rowsRead("attempts");
            new OperationStore(jdbc).claimAndLoad(List.of(fresh.value()), List.of(new ClaimRequest(fresh.value(), 1,
                    "1-0", null, "demo.charge", "1", fresh.idempotencyKey(), "{\"amount\":1}")), "w1", T0,
                    Duration.ofSeconds(10));
            return rowsRead("attempts") - before;
        });

        assertThat(attemptRowsRead).as("attempt rows read, of " + OTHERS * ATTEMPTS_EACH).isZero();
    }

    @Test
    void claimingABatchOfNeighbours_writesNoIndexEntry() {
        List<OperationId> batch = IntStream.range(0, BATCH).mapToObj(i -> new OperationId("batch", "n" + i, 0)).toList();
        new OperationRegistry(jdbc).recordAll(batch.stream().map(ClaimCostTest::envelope).toList(),
                any -> OperationStatus.PENDING);
        List<ClaimRequest> claims = batch.stream().map(id -> new ClaimRequest(id.value(), 1, "1-0", null, "demo.charge",
                "1", id.idempotencyKey(), "{\"amount\":1}")).toList();

        long[] updates = jdbc.inTransaction(() -> {
            long[] before = operationUpdates();
            OperationStore.Sighting sighting = new OperationStore(jdbc).claimAndLoad(
                    batch.stream().map(OperationId::value).toList(), claims, "w1", T0, Duration.ofSeconds(10));
            assertThat(sighting.leases()).hasSize(BATCH);
            long[] after = operationUpdates();
            return new long[] {after[0] - before[0], after[1] - before[1]};
        });

        assertThat(updates[0]).as("operation rows claimed").isEqualTo(BATCH);
        // Not every one: a page filled up to the fillfactor by small rows can lack the room for its last rows' new
        // versions (their line pointers take space too). Before V250 none was.
        assertThat(updates[1]).as("of them HOT updates, without index entries").isGreaterThanOrEqualTo(BATCH * 9 / 10);
    }

    @Test
    void theSweep_readsTheOperationsInFlight_notTheFinishedOnes() {
        new OperationRegistry(jdbc).recordAll(IntStream.range(0, FINISHED)
                .mapToObj(i -> envelope(new OperationId("finished", "n" + i, 0))).toList(), any -> OperationStatus.SUCCEEDED);
        OperationId stranded = new OperationId("stranded", "n", 0);
        new OperationRegistry(jdbc).record(envelope(stranded), OperationStatus.PENDING);
        jdbc.update("UPDATE operations SET updated_at = ? WHERE operation_id = ?", T0.minus(Duration.ofHours(1)),
                stranded.value());
        jdbc.update("ANALYZE operations");

        long rowsRead = jdbc.inTransaction(() -> {
            long before = rowsRead("operations");
            List<OperationFacts> swept = new OperationStore(jdbc).sweepStranded(T0, T0, T0, false, 100);
            assertThat(swept).extracting(OperationFacts::operationId).containsExactly(stranded.value());
            return rowsRead("operations") - before;
        });

        assertThat(rowsRead).as("operation rows read, with " + FINISHED + " finished ones in the table")
                .isLessThan(FINISHED / 10);
    }

    /*
     * The transaction's statistics so far. They also hold what earlier transactions of the same connection did until
     * the backend reports them, hence a difference taken inside the transaction.
     */
    private long rowsRead(String table) {
        return jdbc.queryLong("""
                SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables
                 WHERE schemaname = current_schema() AND relname = ?""", table);
    }

    private long[] operationUpdates() {
        return jdbc.queryOne("""
                SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables
                 WHERE schemaname = current_schema() AND relname = 'operations'""",
                row -> new long[] {row.getLong(1), row.getLong(2)}).orElseThrow();
    }

    private static DispatchEnvelope envelope(OperationId id) {
        return new DispatchEnvelope(id, 1, "demo.charge", "1", id.idempotencyKey(), "{\"amount\":1}", null, null, "test",
                T0, null, null, null, null, null);
    }
}
