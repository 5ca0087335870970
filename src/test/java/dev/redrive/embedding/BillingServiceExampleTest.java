package dev.redrive.embedding;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.redrive.config.RedriveConfig;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample service under examples/billing-service, compiled from its sources against the runtime jar alone, started
 * against a stand-in payment provider, and run: every charge dispatched is made once, with its idempotency key, and
 * its operation SUCCEEDED with the provider's answer as its result.
 */
class BillingServiceExampleTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Path SOURCES = Path.of("examples", "billing-service", "src", "main", "java");
    private static final int CHARGES = 30;

    private final Map<String, String> charges = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    @Test
    void theExampleService_chargesEachDispatchOnce() throws Exception {
        Path classes = compile();
        HttpServer provider = provider();
        ns.database().dropSchema();
        try (URLClassLoader loader = new URLClassLoader(new URL[]{classes.toUri().toURL()}, getClass().getClassLoader());
             AutoCloseable service = (AutoCloseable) loader.loadClass("example.billing.BillingService")
                     .getMethod("start", RedriveConfig.class, URI.class)
                     .invoke(null, ns.config(), URI.create("http://127.0.0.1:" + provider.getAddress().getPort()))) {
            WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
            for (int i = 0; i < CHARGES; i++) {
                client.dispatch(client.newDispatch(new OperationId("invoices-december", "invoice-" + i, 0),
                        "billing.charge", "1", "{\"amount\":" + (100 + i) + "}", null, null, null));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> ns.database().jdbc().queryLong(
                    "SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'") == CHARGES);
        } finally {
            provider.stop(0);
        }

        assertThat(charges).hasSize(CHARGES);
        assertThat(calls.values()).allMatch(count -> count.get() == 1);
        String key = new OperationId("invoices-december", "invoice-7", 0).idempotencyKey();
        assertThat(ns.database().jdbc().queryOne("SELECT result->>'charge_id' FROM operations WHERE operation_id = ?",
                row -> row.getString(1), "invoices-december:invoice-7:0")).contains("ch_" + key);
    }

    private static Path compile() throws IOException {
        Path classes = Files.createTempDirectory("redrive-billing-example");
        List<String> sources;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            sources = files.filter(file -> file.toString().endsWith(".java")).map(Path::toString).toList();
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        String runtime = RuntimeLibrary.classes() + File.pathSeparator + RuntimeLibrary.dependencies();
        String[] arguments = Stream.concat(Stream.of("-classpath", runtime, "-d", classes.toString()), sources.stream())
                .toArray(String[]::new);
        assertThat(compiler.run(null, diagnostics, diagnostics, arguments))
                .as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
        return classes;
    }

    /** The payment provider: one charge per Idempotency-Key, and the look-up of a key's charge. */
    private HttpServer provider() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/charges", exchange -> {
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            calls.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            String charge = charges.computeIfAbsent(key, k -> "{\"charge_id\":\"ch_" + k + "\"}");
            answer(exchange, 200, charge);
        });
        server.createContext("/charges/by-key/", exchange -> {
            String key = URLDecoder.decode(exchange.getRequestURI().getPath().substring("/charges/by-key/".length()),
                    StandardCharsets.UTF_8);
            String charge = charges.get(key);
            answer(exchange, charge == null ? 404 : 200, charge == null ? "{\"applied\":false,\"effects\":0}"
                    : "{\"applied\":true,\"result\":" + charge + ",\"effects\":1}");
        });
        server.start();
        return server;
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
