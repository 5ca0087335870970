package dev.redrive.worker;

import dev.redrive.health.HealthAlert;
import dev.redrive.health.HealthThresholds;
import dev.redrive.health.QueueHealth;
import dev.redrive.health.QueueHealthReader;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestTool;
import dev.redrive.worker.tool.ToolCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Workers that serve different tools share a namespace: each runs only its own tool's dispatches, whatever the
 * consumer group hands it, a dispatch whose tool's workers are away waits for them, and only a tool no worker announced
 * for the grace period is dead-lettered, as no_worker_for_tool.
 */
class WorkersOfDifferentToolsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int EACH = 100;

    @Test
    void twoWorkersOfTwoTools_eachRunsOnlyItsOwn_everyOperationOnce() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            Counting billing = new Counting("billing.charge");
            Counting shipping = new Counting("shipping.label");
            kit.start(kit.worker("billing-1", billing));
            kit.start(kit.worker("shipping-1", shipping));

            dispatch(kit, "run-shared", "billing.charge", EACH);
            dispatch(kit, "run-shared", "shipping.label", EACH);

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> count("operation_id LIKE 'run-shared:%' AND status = 'SUCCEEDED'") == 2 * EACH);
            assertThat(billing.calls).hasSize(EACH).allSatisfy((key, calls) -> assertThat(calls).isOne());
            assertThat(shipping.calls).hasSize(EACH).allSatisfy((key, calls) -> assertThat(calls).isOne());
            assertThat(ns.database().jdbc().queryLong(
                    "SELECT count(*) FROM dlq_entries WHERE operation_id LIKE 'run-shared:%'")).isZero();
        }
    }

    @Test
    void aDispatchWhoseToolsWorkersAreAway_waitsForThem_andRunsWhenOneStarts() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            Counting labels = new Counting("away.label");
            Worker first = kit.start(kit.worker("away-1", labels));
            first.shutdown().get(10, TimeUnit.SECONDS);
            kit.start(kit.worker("billing-2", new AnswersAtOnce("billing.other")).unservedToolGrace(Duration.ofSeconds(20)));

            dispatch(kit, "run-away", "away.label", 5);
            // Read and handed on by the billing worker, due again in a few seconds: never dead-lettered meanwhile.
            await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                    .until(() -> count("operation_id LIKE 'run-away:%' AND status = 'PENDING'") == 5);
            assertThat(labels.calls).isEmpty();

            kit.start(kit.worker("away-2", labels));

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> count("operation_id LIKE 'run-away:%' AND status = 'SUCCEEDED'") == 5);
            assertThat(labels.calls).hasSize(5).allSatisfy((key, calls) -> assertThat(calls).isOne());
            assertThat(ns.database().jdbc().queryLong(
                    "SELECT count(*) FROM dlq_entries WHERE operation_id LIKE 'run-away:%'")).isZero();
        }
    }

    @Test
    void aToolNoWorkerAnnouncedForTheGrace_isDeadLetteredAsNoWorkerForTool() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            kit.start(kit.worker("billing-3", new AnswersAtOnce("billing.third")).unservedToolGrace(Duration.ofSeconds(2)));

            dispatch(kit, "run-none", "nobody.serves", 3);

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> count("operation_id LIKE 'run-none:%' AND status = 'DEAD_LETTERED'") == 3);
            List<String> codes = ns.database().jdbc().query("SELECT error_class || ' ' || error_code || ': ' || "
                    + "error_message FROM dlq_entries WHERE operation_id LIKE 'run-none:%'", row -> row.getString(1));
            assertThat(codes).hasSize(3).allMatch(line -> line.startsWith("INVALID_INPUT no_worker_for_tool: no worker "
                    + "serves tool nobody.serves: none announced it in 2s"));
            QueueHealth health = new QueueHealthReader(ns.database(), ns.redis(), Clock.systemUTC()).read();
            assertThat(health.unservedTools()).containsExactly("nobody.serves");
            assertThat(new HealthThresholds(0, 0, Duration.ZERO).check(health)).extracting(HealthAlert::message)
                    .containsExactly("no worker serves nobody.serves: their dispatches wait, then are dead-lettered as "
                            + "no_worker_for_tool");
        }
    }

    private static void dispatch(WorkerTestKit kit, String run, String tool, int count) {
        kit.client().dispatchAll(IntStream.range(0, count)
                .mapToObj(i -> kit.client().newDispatch(new OperationId(run, tool + "-" + i, 0), tool, "1",
                        "{\"n\":" + i + "}", null, null, null))
                .toList());
    }

    private static long count(String where) {
        return ns.database().jdbc().queryLong("SELECT count(*) FROM operations WHERE " + where);
    }

    /** A tool that answers at once and counts its calls per idempotency key. */
    private static final class Counting extends TestTool {
        final Map<String, Integer> calls = new ConcurrentHashMap<>();

        Counting(String name) {
            super(name);
        }

        @Override
        public String execute(ToolCall call) {
            calls.merge(call.idempotencyKey(), 1, Integer::sum);
            return "{\"ok\":true}";
        }
    }
}
