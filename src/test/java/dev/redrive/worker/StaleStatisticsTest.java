package dev.redrive.worker;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The worker's statements do not depend on statistics being fresh. A new namespace's tables were analyzed empty by
 * the migrations, and with autovacuum off (a setting some servers run with, this machine's among them) nothing
 * analyzes them again. PostgreSQL kept the plan of a claim it had first planned on an empty attempts table for as long
 * as the connection lived: it read every attempt row of the table for every operation it claimed, and a drain of
 * 50,000 operations fell to about 140 per second after 40,000. Counted from the server's table statistics: no timing.
 */
class StaleStatisticsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int OPERATIONS = 3_000;
    private static final String TOOL = "stale.answer";
    private static final String ROWS_READ_BY_SCANS = """
            SELECT coalesce(sum(seq_tup_read), 0) FROM pg_stat_user_tables
             WHERE schemaname = current_schema() AND relname = ?""";

    @Test
    void drainingIntoTablesAnalyzedEmpty_neverScansTheAttemptsTable() {
        Jdbc jdbc = ns.database().jdbc();
        for (String table : List.of("operations", "attempts", "runs")) {
            jdbc.update("ALTER TABLE " + table + " SET (autovacuum_enabled = false)");
        }
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        List<DispatchEnvelope> dispatches = new ArrayList<>();
        for (int i = 0; i < OPERATIONS; i++) {
            dispatches.add(client.newDispatch(new OperationId("stale-" + (i % 10), "node-" + i, 0), TOOL, "1",
                    "{\"n\":" + i + "}", "trace-" + i, null, null));
        }
        client.dispatchAll(dispatches);
        long scannedBefore = settledRowsRead(jdbc, "attempts");

        // A pool of its own: closing it ends the worker's sessions, which hands their statistics to the server.
        try (Database workerStore = Database.open(ns.config(), 12)) {
            Worker worker = Worker.builder(workerStore, ns.redis()).tool(new AnswersAtOnce(TOOL)).consumerName("stale-1")
                    .concurrency(8).build().start();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).until(() -> jdbc.queryLong(
                    "SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'") == OPERATIONS);
            worker.shutdown().join();
        }

        assertThat(settledRowsRead(jdbc, "attempts") - scannedBefore)
                .as("attempt rows read by sequential scans while %d operations were drained", OPERATIONS)
                .isLessThan(OPERATIONS);
    }

    /** Statistics of ended sessions reach the shared counters a moment later: read until the counter holds still. */
    private static long settledRowsRead(Jdbc jdbc, String table) {
        long[] last = {-1};
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> {
            long now = jdbc.inTransaction(() -> {
                jdbc.query("SELECT pg_stat_clear_snapshot()", row -> null);
                return jdbc.queryLong(ROWS_READ_BY_SCANS, table);
            });
            boolean still = now == last[0];
            last[0] = now;
            return still;
        });
        return last[0];
    }
}
