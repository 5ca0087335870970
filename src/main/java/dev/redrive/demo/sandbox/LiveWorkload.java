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
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A light, steady trickle of new work after the seed, so the console's live views move: mostly charges and receipts
 * that succeed, some that recover after a retry, and now and then one that dead-letters.
 *
 * <p>It limits itself: once the open DLQ holds {@code openBound} entries, nothing it sends is made to dead-letter
 * until operators have decided some. Unbounded it added about 470 entries an hour, the DLQ alert never cleared and
 * its notification came back all day.
 */
final class LiveWorkload implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveWorkload.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fault lists by share of the trickle: null = a clean call; all of these end in success, at most after retries. */
    private static final String[] RECOVERING = {
            null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
            "rate_limit:1:1", "transient:1", "transient:2"};
    /** What dead-letters, one call in {@link #RECOVERING}.length + 1 while the DLQ is under its bound. */
    static final List<String> DEAD_LETTERING = List.of("invalid", "forbidden", "timeout_after_apply;lookup_down:1",
            "transient");

    private final Consumer<PlannedOperation> dispatcher;
    private final String runId;
    private final LongSupplier openEntries;
    private final long openBound;
    private final Random random;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "sandbox-live-workload");
        thread.setDaemon(true);
        return thread;
    });
    private int sequence;

    /**
     * @param openEntries how many DLQ entries are open now (read once per tick)
     * @param openBound   from this many open entries on, nothing sent is made to fail for good
     */
    LiveWorkload(Consumer<PlannedOperation> dispatcher, String runId, LongSupplier openEntries, long openBound,
                 Random random) {
        this.dispatcher = dispatcher;
        this.runId = runId;
        this.openEntries = openEntries;
        this.openBound = openBound;
        this.random = random;
    }

    /** Dispatches {@code perTick} operations every {@code interval} until closed. */
    void start(Duration interval, int perTick) {
        scheduler.scheduleWithFixedDelay(() -> tick(perTick), interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void tick(int perTick) {
        try {
            boolean room = openEntries.getAsLong() < openBound;
            for (int i = 0; i < perTick; i++) {
                dispatcher.accept(next(room));
            }
        } catch (RuntimeException e) {
            LOG.warn("live workload could not dispatch: {}", e.getMessage());
        }
    }

    private PlannedOperation next(boolean mayDeadLetter) {
        int number = ++sequence;
        DemoTool tool = random.nextBoolean() ? DemoTool.CHARGE : DemoTool.NOTIFY;
        ObjectNode payload = tool == DemoTool.CHARGE
                ? JSON.createObjectNode().put("amount", BigDecimal.valueOf(500 + random.nextInt(20_000), 2))
                        .put("currency", "EUR").put("customer", "cus_" + hex(6))
                : JSON.createObjectNode().put("to", "customer-" + number + "@example.com").put("template", "receipt");
        int draw = random.nextInt(RECOVERING.length + 1);
        String fault = draw < RECOVERING.length ? RECOVERING[draw]
                : mayDeadLetter ? DEAD_LETTERING.get(random.nextInt(DEAD_LETTERING.size())) : null;
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
