package dev.redrive.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestTool;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.ToolCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class PoisonMessageTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    /** A handler bug: every call blows up with an exception that is not a classified failure. */
    private static final class CrashingTool extends TestTool {
        final AtomicInteger calls = new AtomicInteger();

        CrashingTool() {
            super("test.crashing");
        }

        @Override
        public String execute(ToolCall call) {
            calls.incrementAndGet();
            throw new IllegalStateException("cannot parse amount of " + call.operationId());
        }
    }

    @Test
    void messageThatCrashesTheHandler_deadLetteredAtTheDeliveryLimit_withItsDeliveryHistory() throws Exception {
        CrashingTool tool = new CrashingTool();
        Worker worker = Worker.builder(ns.database(), ns.redis()).tool(tool).consumerName("poison-worker")
                .leaseDuration(Duration.ofMillis(500)).claimInterval(Duration.ofMillis(100)).deliveryLimit(3)
                .build().start();
        OperationId id = new OperationId("poison", "charge", 0);
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        client.dispatch(client.newDispatch(id, "test.crashing", "1", "{\"amount\":\"ten\"}", "trace-p", null, null));

        await().atMost(Duration.ofSeconds(15)).until(() ->
                ns.database().jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE operation_id = ?", id.value()) == 1);
        worker.shutdown().get(10, TimeUnit.SECONDS);
        assertThat(worker.state()).isEqualTo(WorkerState.STOPPED);

        assertThat(tool.calls.get()).isEqualTo(3);
        String history = ns.database().jdbc().queryOne("SELECT delivery_history::text FROM dlq_entries WHERE operation_id = ?",
                row -> row.getString(1), id.value()).orElseThrow();
        List<Long> counts = new ArrayList<>();
        for (JsonNode delivery : new ObjectMapper().readTree(history)) {
            counts.add(delivery.get("delivery_count").asLong());
            assertThat(delivery.get("error_type").asText()).isEqualTo(IllegalStateException.class.getName());
            assertThat(delivery.get("consumer").asText()).isEqualTo("poison-worker");
        }
        // One crash per delivery that ran the handler, in delivery order. (On a busy machine the broker may deliver the
        // entry once more in between without the handler running: a lease that ran out before a pool thread was free.)
        assertThat(counts).hasSize(3).isSorted().doesNotHaveDuplicates();
        assertThat(ns.database().jdbc().queryOne(
                "SELECT error_code || '/' || error_class || '/' || side_effect || '/' || delivery_count FROM dlq_entries WHERE operation_id = ?",
                row -> row.getString(1), id.value())).hasValueSatisfying(text ->
                assertThat(text).startsWith("delivery_limit/UNKNOWN_SIDE_EFFECT/POSSIBLE/"));
        assertThat(ns.database().jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?",
                row -> row.getString(1), id.value())).contains("DEAD_LETTERED");
        assertThat(ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers").getCount()).isZero();
    }
}
