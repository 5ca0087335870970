package dev.redrive.worker;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.precondition.DecisionTarget;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Each outcome a worker can reach moves its own meter, tagged with the namespace, the tool and the failure class. */
class WorkerMetricsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void everyOutcome_movesItsCounter() {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            kit.start(kit.worker("metered", kit.charge(Duration.ofSeconds(3))).meterRegistry(registry));

            DispatchEnvelope plain = kit.dispatch("metrics", "plain", "{\"amount\":1}");
            OperationId transientOnce = faultyCharge(kit, "transient", 2, "transient:1");
            OperationId rateLimited = faultyCharge(kit, "limited", 3, "rate_limit:1:1");
            OperationId down = faultyCharge(kit, "down", 4, "dependency_down:1");
            OperationId invalid = faultyCharge(kit, "invalid", 5, "invalid:1");
            OperationId forbidden = faultyCharge(kit, "forbidden", 6, "forbidden:1");
            OperationId lostAnswer = faultyCharge(kit, "lost", 7, "timeout_after_apply:1");
            Map<String, byte[]> malformed = new LinkedHashMap<>();
            malformed.put("v", "1".getBytes(StandardCharsets.UTF_8));
            malformed.put("operation_id", "no:tool:0".getBytes(StandardCharsets.UTF_8));
            kit.xaddRaw(malformed);

            for (OperationId id : new OperationId[]{plain.operationId(), transientOnce, rateLimited, down, lostAnswer}) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(30));
            }
            kit.awaitStatus(invalid, "DEAD_LETTERED", Duration.ofSeconds(20));
            kit.awaitStatus(forbidden, "DEAD_LETTERED", Duration.ofSeconds(20));
            await().atMost(Duration.ofSeconds(10)).until(() -> count("redrive.dead.letters", "tool", "none") == 1);

            assertThat(count("redrive.attempts", "class", "none", "outcome", "SUCCEEDED")).isEqualTo(4);
            assertThat(count("redrive.attempts", "class", "TRANSIENT", "outcome", "RETRY_SCHEDULED")).isEqualTo(1);
            assertThat(count("redrive.attempts", "class", "RATE_LIMITED", "outcome", "RETRY_SCHEDULED")).isEqualTo(1);
            assertThat(count("redrive.attempts", "class", "DEPENDENCY_DOWN", "outcome", "RETRY_SCHEDULED")).isEqualTo(1);
            assertThat(count("redrive.attempts", "class", "INVALID_INPUT", "outcome", "DEAD_LETTERED")).isEqualTo(1);
            assertThat(count("redrive.attempts", "class", "PERMISSION", "outcome", "DEAD_LETTERED")).isEqualTo(1);
            assertThat(count("redrive.attempts", "class", "UNKNOWN_SIDE_EFFECT", "outcome", "SUCCEEDED"))
                    .as("the lost answer, reconciled as applied").isEqualTo(1);
            assertThat(count("redrive.retries.scheduled", "class", "TRANSIENT")).isEqualTo(1);
            assertThat(count("redrive.dead.letters", "tool", "demo.charge", "class", "INVALID_INPUT")).isEqualTo(1);
            assertThat(count("redrive.dead.letters", "tool", "demo.charge", "class", "PERMISSION")).isEqualTo(1);
            assertThat(count("redrive.dead.letters", "tool", "none", "class", "INVALID_INPUT")).isEqualTo(1);
            assertThat(count("redrive.reconciliations", "result", "APPLIED")).isEqualTo(1);
            assertThat(count("redrive.attempts.started", "tool", "demo.charge")).isEqualTo(10);
            assertThat(registry.get("redrive.tool.call").tags("tool", "demo.charge", "outcome", "ok").timer().count())
                    .isEqualTo(4);
            assertThat(registry.get("redrive.tool.call").tags("outcome", "TRANSIENT").timer().count()).isEqualTo(1);
            assertThat(registry.get("redrive.batch.size").summary().count()).isPositive();
            assertThat(registry.get("redrive.claim").timer().count()).isPositive();
            // Everything settled: no retry waits, no dispatch is undone, and the sampled gauges say so.
            await().atMost(Duration.ofSeconds(15)).until(() -> registry.get("redrive.retry.set.size").gauge().value() == 0
                    && registry.get("redrive.dispatch.lag").timeGauge().value() == 0);
            assertThat(registry.getMeters()).allSatisfy(meter ->
                    assertThat(meter.getId().getTag("namespace")).isEqualTo(ns.name()));

            // A retry told to wait a minute is in the retry set until then: the gauge, sampled every 5 s, counts it.
            OperationId held = faultyCharge(kit, "held", 8, "rate_limit:1:60");
            kit.awaitStatus(held, "RETRY_SCHEDULED", Duration.ofSeconds(20));
            await().atMost(Duration.ofSeconds(15)).until(() -> registry.get("redrive.retry.set.size").gauge().value() == 1);

            kit.client().publish(plain);
            await().atMost(Duration.ofSeconds(10)).until(() -> count("redrive.deliveries.skipped", "reason", "done") == 1);

            DecisionResult redriven = new Decisions(ns.database(), kit.client(), Clock.systemUTC())
                    .redrive(new DecisionTarget(invalid.value(), null, null, null), "ops", "fixed upstream");
            assertThat(redriven.outcome()).as(redriven.toString()).isEqualTo(DecisionOutcome.DONE);
            kit.awaitStatus(invalid, "SUCCEEDED", Duration.ofSeconds(20));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> count("redrive.redrive.commands", "outcome", "SUCCEEDED") == 1);
        }
    }

    private double count(String name, String... tags) {
        return Search.in(registry).name(name).tags(tags).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    /** Dispatches a charge of {@code amount} whose call fails as {@code fault} says (the demo tool's fault syntax). */
    private static OperationId faultyCharge(WorkerTestKit kit, String node, int amount, String fault) {
        return kit.dispatch("metrics", node, "{\"amount\":" + amount + ",\"fault\":\"" + fault + "\"}").operationId();
    }
}
