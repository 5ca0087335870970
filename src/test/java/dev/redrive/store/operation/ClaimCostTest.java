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
 * there), where it chose that walk. Counted with the transaction's own statistics, which PostgreSQL keeps exactly: no
 * timing.
 */
class ClaimCostTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");
    private static final int OTHERS = 400;
    private static final int ATTEMPTS_EACH = 25;

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
            new OperationStore(jdbc).claimAndLoad(List.of(fresh.value()), List.of(new ClaimRequest(fresh.value(), 1,
                    "1-0", null, "demo.charge", "1", fresh.idempotencyKey(), "{\"amount\":1}")), "w1", T0,
                    Duration.ofSeconds(10));
            return jdbc.queryLong("""
                    SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables
                     WHERE schemaname = current_schema() AND relname = 'attempts'""");
        });

        assertThat(attemptRowsRead).as("attempt rows read, of " + OTHERS * ATTEMPTS_EACH).isZero();
    }

    private static DispatchEnvelope envelope(OperationId id) {
        return new DispatchEnvelope(id, 1, "demo.charge", "1", id.idempotencyKey(), "{\"amount\":1}", null, null, "test",
                T0, null, null, null, null, null);
    }
}
