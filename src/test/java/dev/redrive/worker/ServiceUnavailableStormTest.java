package dev.redrive.worker;

import com.sun.net.httpserver.HttpServer;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.HttpTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A remote service answers every call with 503 and {@code Retry-After: 2} for a few seconds, while thousands of
 * operations wait for it. The workers pause the tool for each other: no operation is called again before the
 * Retry-After its 503 asked for, the service is not hammered during the storm, and when it ends the backlog drains
 * without a thundering herd: the busiest second has at most twice the calls of the average second of the drain.
 */
class ServiceUnavailableStormTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int OPERATIONS = 3000;
    private static final int RETRY_AFTER_SECONDS = 2;
    private static final Duration STORM = Duration.ofSeconds(5);

    private record Call(String key, long atMillis, int status) {
    }

    /** The remote service: 503 with Retry-After until the storm ends, then 200; remembers every call. */
    private static final class StormyService implements AutoCloseable {
        final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        final HttpServer server;
        volatile long stormEndsAt = Long.MAX_VALUE;

        StormyService() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(Executors.newFixedThreadPool(16));
            server.createContext("/charge", exchange -> {
                long now = System.currentTimeMillis();
                String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
                exchange.getRequestBody().readAllBytes();
                boolean down = now < stormEndsAt;
                calls.add(new Call(key, now, down ? 503 : 200));
                byte[] body = (down ? "{\"error\":\"upstream unavailable\"}" : "{\"charged\":\"" + key + "\"}")
                        .getBytes(StandardCharsets.UTF_8);
                if (down) {
                    exchange.getResponseHeaders().add("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
                }
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(down ? 503 : 200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/charge");
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Test
    void aStormOf503s_isWaitedOut_andTheBacklogDrainsWithoutAHerd() throws Exception {
        try (StormyService service = new StormyService(); WorkerTestKit kit = new WorkerTestKit(ns)) {
            WorkerClient client = kit.client();
            for (int i = 0; i < OPERATIONS; i++) {
                OperationId id = new OperationId("storm", "op" + i, 0);
                client.dispatch(client.newDispatch(id, "storm.charge", "1", "{\"amount\":" + i + "}", null, null, null));
            }
            long stormStarts = System.currentTimeMillis();
            service.stormEndsAt = stormStarts + STORM.toMillis();
            for (String name : List.of("storm-a", "storm-b")) {
                kit.start(kit.worker(name, HttpTool.builder("storm.charge", "1", service.endpoint())
                        .requestTimeout(Duration.ofSeconds(5)).build()).batchSize(64));
            }

            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() ->
                    kit.count("SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'") == OPERATIONS);

            List<Call> calls = new ArrayList<>(service.calls);
            Map<String, List<Call>> byKey = new HashMap<>();
            calls.forEach(call -> byKey.computeIfAbsent(call.key(), key -> new ArrayList<>()).add(call));
            long tooEarly = 0;
            for (List<Call> ofKey : byKey.values()) {
                ofKey.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
                for (int i = 1; i < ofKey.size(); i++) {
                    Call previous = ofKey.get(i - 1);
                    if (previous.status() == 503 && ofKey.get(i).atMillis() < previous.atMillis() + RETRY_AFTER_SECONDS * 1000L) {
                        tooEarly++;
                    }
                }
            }
            long duringStorm = calls.stream().filter(call -> call.status() == 503).count();
            TreeMap<Long, Integer> successesPerSecond = new TreeMap<>();
            calls.stream().filter(call -> call.status() == 200)
                    .forEach(call -> successesPerSecond.merge(call.atMillis() / 1000, 1, Integer::sum));
            long first = successesPerSecond.firstKey();
            long last = successesPerSecond.lastKey();
            double mean = (double) OPERATIONS / (last - first + 1);
            int busiest = successesPerSecond.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
            System.out.printf("503 storm: %d operations, %d calls during the %d s storm, %d calls before their "
                            + "Retry-After; drain over %d s: busiest second %d calls, mean %.0f (%.2f×); per second %s%n",
                    OPERATIONS, duringStorm, STORM.toSeconds(), tooEarly, last - first + 1, busiest, mean, busiest / mean,
                    successesPerSecond.values());

            assertThat(tooEarly).as("calls made before the Retry-After of the 503 that answered their key").isZero();
            assertThat(calls.stream().filter(call -> call.status() == 200).count()).as("one success per operation")
                    .isEqualTo(OPERATIONS);
            assertThat(duringStorm).as("calls during the storm: the tool is paused, not hammered")
                    .isLessThan(OPERATIONS / 4);
            assertThat(busiest).as("busiest second of the drain vs the mean").isLessThanOrEqualTo((int) Math.ceil(2 * mean));
        }
    }
}
