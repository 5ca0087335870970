package dev.redrive.cli;

import com.sun.net.httpserver.HttpServer;
import dev.redrive.config.ConfigurationException;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A team without Java code runs the CLI worker against its own HTTP services, described in a tools file. */
class WorkerToolsFileTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void aYamlToolsFile_runsOperationsAgainstTheServiceItNames() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        HttpServer service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        service.createContext("/charge", exchange -> {
            calls.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("{\"charged\":\"" + exchange.getRequestHeaders().getFirst("Idempotency-Key") + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        service.start();
        Path file = Files.createTempFile("tools", ".yaml");
        Files.writeString(file, """
                tools:
                  - name: billing.charge
                    url: http://127.0.0.1:%d/charge
                    lookup: http://127.0.0.1:%d/charges/
                    schema_version: "2"
                    request_timeout: 5s
                    budget: { per_second: 100, burst: 10 }
                retry:
                  max_attempts: { transient: 3 }
                  base_delay: 50ms
                  max_delay: PT1S
                """.formatted(service.getAddress().getPort(), service.getAddress().getPort()));
        Worker.Builder builder = Worker.builder(ns.database(), ns.redis()).consumerName("tools-file");
        ToolsFile.read(file).configure(builder, file);
        Worker worker = builder.build().start();
        try {
            WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
            OperationId id = new OperationId("tools-file", "charge", 0);
            client.dispatch(client.newDispatch(id, "billing.charge", "2", "{\"amount\":3}", null, null, null));
            await().atMost(Duration.ofSeconds(20)).until(() -> "SUCCEEDED".equals(ns.database().jdbc().queryOne(
                    "SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), id.value()).orElse(null)));
            assertThat(calls.get()).isEqualTo(1);
            assertThat(ns.database().jdbc().queryOne("SELECT version FROM tool_schemas WHERE tool = 'billing.charge' AND is_current",
                    row -> row.getString(1))).contains("2");
        } finally {
            worker.shutdown().get(10, TimeUnit.SECONDS);
            service.stop(0);
        }
    }

    @Test
    void mistakesInTheToolsFile_areOneLineNamingTheEntry() throws Exception {
        assertMistake("{\"tools\":[{\"name\":\"a\",\"url\":\"ftp://x\"}]}", "tool a: url must be an http:// or https:// URL, got ftp://x");
        assertMistake("{\"tools\":[{\"name\":\"a\",\"url\":\"http://x\",\"request_timeout\":\"soon\"}]}",
                "tool a: request_timeout must be a duration like 500ms, 10s, 30m, 24h, 7d or ISO-8601 (PT10S, P7D), got soon");
        assertMistake("{\"tools\":[{\"name\":\"a\",\"url\":\"http://x\",\"timeout\":\"1s\"}]}", "unknown field 'timeout'");
        assertMistake("{\"tools\":[]}", "no tools");
        assertMistake("{\"tools\":[{\"name\":\"a b\",\"url\":\"http://x\"}]}", "tools[0]: name must match");
        assertMistake("{\"tools\":[{\"name\":\"a\",\"url\":\"http://x\"}],\"retry\":{\"max_attempts\":{\"sometimes\":2}}}",
                "retry.max_attempts: unknown failure class 'sometimes'");
        assertThatThrownBy(() -> ToolsFile.read(Path.of("/nonexistent-dir/tools.yaml")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("cannot read the tools file /nonexistent-dir/tools.yaml: no such file");
    }

    @Test
    void theCliWorker_needsToolsOrDemoTools() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = RedriveCommand.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute("worker", "--namespace", ns.name());

        assertThat(exit).isEqualTo(ExitCode.USAGE);
        assertThat(err.toString()).contains("--tools=FILE").contains("--demo-tools");
    }

    private static void assertMistake(String json, String message) throws Exception {
        Path file = Files.createTempFile("tools", ".json");
        Files.writeString(file, json);
        assertThatThrownBy(() -> ToolsFile.read(file).configure(Worker.builder(ns.database(), ns.redis()), file))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
