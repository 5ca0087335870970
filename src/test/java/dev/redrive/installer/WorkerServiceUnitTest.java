package dev.redrive.installer;

import com.sun.net.httpserver.HttpServer;
import dev.redrive.cli.Main;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.FreePort;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestServers;
import dev.redrive.worker.client.WorkerClient;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Linux package's {@code redrive-worker@.service}, run the way systemd runs {@code redrive-worker@billing}: its
 * environment from the shipped {@code worker.env.example} filled in as an adopter would, ExecStart's words substituted,
 * {@code /opt/redrive/bin/Redrive} (the main launcher, with the full JIT) being the jar's entry point. The worker serves
 * the tool its tools file names, and stops on the SIGTERM that {@code systemctl stop} sends.
 */
class WorkerServiceUnitTest {
    private static final Path UNIT = Path.of("installer/linux/redrive-worker@.service");
    private static final Path ENV_EXAMPLE = Path.of("installer/linux/worker.env.example");

    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @TempDir
    Path etc;

    @Test
    void anInstanceReadsItsEnvFile_servesItsTools_andStopsOnSigterm() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        HttpServer service = chargeService(calls);
        int metricsPort = FreePort.next();
        Files.writeString(etc.resolve("billing.tools.yaml"), """
                tools:
                  - name: billing.charge
                    url: http://127.0.0.1:%d/charge
                    lookup: http://127.0.0.1:%d/charges/
                    schema_version: "1"
                """.formatted(service.getAddress().getPort(), service.getAddress().getPort()));
        Map<String, String> servers = TestServers.environment();
        Files.writeString(etc.resolve("billing.env"), filledIn(Files.readString(ENV_EXAMPLE), Map.of(
                "REDRIVE_PG_URL", servers.get("REDRIVE_PG_URL"),
                "REDRIVE_PG_USER", servers.get("REDRIVE_PG_USER"),
                "REDRIVE_REDIS_URI", servers.get("REDRIVE_REDIS_URI"),
                "REDRIVE_NAMESPACE", ns.name(),
                "REDRIVE_WORKER_OPTIONS", "--concurrency 2 --metrics-port " + metricsPort)));

        SystemdUnit unit = SystemdUnit.read(UNIT);
        assertThat(unit.single("EnvironmentFile")).isEqualTo("/etc/redrive/%i.env");
        assertThat(unit.single("User")).isEqualTo("redrive");
        Map<String, String> environment = unit.environment("billing", etc);
        List<String> command = unit.command("billing", environment);
        assertThat(command.get(0)).isEqualTo("/opt/redrive/bin/Redrive");
        assertThat(command.subList(1, command.size())).containsExactly("worker", "--tools",
                etc.resolve("billing.tools.yaml").toString(), "--concurrency", "2", "--metrics-port",
                String.valueOf(metricsPort));

        Path log = etc.resolve("worker.log");
        ProcessBuilder builder = new ProcessBuilder(asTheJar(command)).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("REDRIVE_"));
        builder.environment().put("REDRIVE_PG_PASSWORD", servers.get("REDRIVE_PG_PASSWORD"));
        builder.environment().putAll(environment);
        Process worker = builder.start();
        try {
            WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
            OperationId id = new OperationId("unit", "charge", 0);
            client.dispatch(client.newDispatch(id, "billing.charge", "1", "{\"amount\":3}", null, null, null));
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    assertThat(worker.isAlive()).as("worker running").isTrue();
                    return "SUCCEEDED".equals(ns.database().jdbc().queryOne("SELECT status FROM operations "
                            + "WHERE operation_id = ?", row -> row.getString(1), id.value()).orElse(null));
                });
            } catch (ConditionTimeoutException | AssertionError e) {
                throw new AssertionError("the operation did not succeed; the worker said:\n" + Files.readString(log), e);
            }
            assertThat(calls.get()).isEqualTo(1);
            assertThat(metrics(metricsPort)).contains("redrive_");

            worker.destroy();
            assertThat(worker.waitFor(60, TimeUnit.SECONDS)).as("stopped on SIGTERM").isTrue();
            assertThat(Files.readString(log)).contains("stopped");
        } finally {
            worker.destroyForcibly();
            service.stop(0);
        }
    }

    /** The example with the given settings filled in (commented-out ones switched on), as an adopter edits it. */
    private static String filledIn(String example, Map<String, String> settings) {
        List<String> lines = new ArrayList<>();
        for (String line : example.split("\n")) {
            String key = line.replaceFirst("^#", "").split("=", 2)[0];
            lines.add(settings.containsKey(key) ? key + "=" + settings.get(key) : line);
        }
        assertThat(settings.keySet()).allSatisfy(key -> assertThat(lines).contains(key + "=" + settings.get(key)));
        return lines.stream().collect(Collectors.joining("\n", "", "\n"));
    }

    private static List<String> asTheJar(List<String> command) {
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                Main.class.getName()));
        java.addAll(command.subList(1, command.size()));
        return java;
    }

    private static HttpServer chargeService(AtomicInteger calls) throws IOException {
        HttpServer service = HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        service.createContext("/charge", exchange -> {
            calls.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            byte[] body = "{\"charged\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        service.start();
        return service;
    }

    private static String metrics(int port) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
