package dev.redrive.demo.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.demo.tools.DemoTool;
import dev.redrive.identity.OperationId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A light, steady trickle of new work after the seed, so the console's live views move: mostly charges and receipts
 * that succeed, some that recover after a retry, and now and then one that dead-letters.
 */
final class LiveWorkload implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveWorkload.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fault lists by share of the trickle: null = a clean call. */
    private static final String[] FAULTS = {
            null, null, null, null, null, null, null, null, null, null, null, null, null,
            "rate_limit:1:1", "transient:1", "transient:2",
            "invalid", "forbidden", "timeout_after_apply;lookup_down:1", "transient"};

    private final IncidentDispatcher dispatcher;
    private final String runId;
    private final Random random = new Random();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "sandbox-live-workload");
        thread.setDaemon(true);
        return thread;
    });
    private int sequence;

    LiveWorkload(IncidentDispatcher dispatcher, String runId) {
        this.dispatcher = dispatcher;
        this.runId = runId;
    }

    /** Dispatches {@code perTick} operations every {@code interval} until closed. */
    void start(Duration interval, int perTick) {
        scheduler.scheduleWithFixedDelay(() -> tick(perTick), interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void tick(int perTick) {
        try {
            for (int i = 0; i < perTick; i++) {
                dispatcher.dispatch(next());
            }
        } catch (RuntimeException e) {
            LOG.warn("live workload could not dispatch: {}", e.getMessage());
        }
    }

    private PlannedOperation next() {
        int number = ++sequence;
        DemoTool tool = random.nextBoolean() ? DemoTool.CHARGE : DemoTool.NOTIFY;
        ObjectNode payload = tool == DemoTool.CHARGE
                ? JSON.createObjectNode().put("amount", BigDecimal.valueOf(500 + random.nextInt(20_000), 2))
                        .put("currency", "EUR").put("customer", "cus_" + hex(6))
                : JSON.createObjectNode().put("to", "customer-" + number + "@example.com").put("template", "receipt");
        String fault = FAULTS[random.nextInt(FAULTS.length)];
        if (fault != null) {
            payload.put("fault", fault);
        }
        String nodeId = tool.toolName().substring("demo.".length()) + "-" + number;
        return new PlannedOperation(new OperationId(runId, nodeId, 0), tool, IncidentScenario.ORIGINAL_SCHEMA_VERSION,
                payload.toString(), hex(16), "live-" + number, null);
    }

    private String hex(int bytes) {
        byte[] value = new byte[bytes];
        random.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
