package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A tool's rate budget holds for all the namespace's workers together, not for each of them. */
class SharedToolBudgetTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final double PER_SECOND = 4;
    private static final int OPERATIONS = 12;

    @Test
    void twoWorkersWithTheSameBudget_callTheToolNoFasterThanTheBudgetTogether() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            kit.startSharingABudget(PER_SECOND, "one", "two");
            List<OperationId> ids = kit.dispatchCharges("budget", OPERATIONS);

            for (OperationId id : ids) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(30));
                assertThat(kit.callsFor(id)).isEqualTo(1);
            }
            List<Instant> calls = kit.jdbc().query("SELECT received_at FROM demo_tool_calls ORDER BY received_at",
                    row -> row.getTimestamp(1).toInstant());
            assertThat(kit.jdbc().query("SELECT DISTINCT consumer FROM attempts", row -> row.getString(1)))
                    .as("both workers took part").hasSize(2);
            Duration span = Duration.between(calls.get(0), calls.get(calls.size() - 1));
            // One permit at the start, then one every 1/PER_SECOND s for the whole fleet: per-worker buckets would
            // have let twice as many through.
            assertThat(span).isGreaterThanOrEqualTo(Duration.ofMillis((long) ((OPERATIONS - 1) / PER_SECOND * 1000) - 250));
        }
    }
}
