package dev.redrive.worker.tool;

import com.sun.net.httpserver.HttpServer;
import dev.redrive.model.FailureClass;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The HTTP adapter's classification, against a real loopback server that answers what each path names. */
class HttpToolTest {
    private static HttpServer server;
    private static final Instant NOW = Instant.parse("2026-11-30T00:00:00Z");

    @BeforeAll
    static void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            String[] parts = exchange.getRequestURI().getPath().split("/");
            if (parts[1].equals("stall")) {
                sleep(2000);
            }
            boolean echo = parts[1].equals("echo-timeout");
            int status = parts[1].equals("stall") || echo ? 200 : Integer.parseInt(parts[1]);
            if (parts.length > 2) {
                exchange.getResponseHeaders().add("Retry-After", parts[2].replace('_', ' '));
            }
            byte[] body = (echo ? exchange.getRequestHeaders().getFirst("Request-Timeout-Ms")
                    : "{\"status\":" + status + "}").getBytes();
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/echo-ids", exchange -> {
            byte[] body = (exchange.getRequestHeaders().getFirst("X-Trace-Id") + "|"
                    + exchange.getRequestHeaders().getFirst("X-Correlation-Id")).getBytes(StandardCharsets.ISO_8859_1);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        // A look-up by the contract of docs/tool-lookup.md: the key says what the tool counts.
        server.createContext("/lookup/", exchange -> {
            String key = exchange.getRequestURI().getPath().substring("/lookup/".length());
            int status = key.equals("never") ? 404 : 200;
            String answer = switch (key) {
                case "never" -> "{\"applied\":false,\"effects\":0}";
                case "twice" -> "{\"applied\":true,\"result\":{\"id\":\"ch_1\"},\"effects\":2}";
                default -> "{\"applied\":true,\"result\":{\"id\":\"ch_1\"}}";
            };
            byte[] body = answer.getBytes();
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop(0);
    }

    private static HttpTool tool(String path) {
        return HttpTool.builder("test.http", "1", URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
                .requestTimeout(Duration.ofMillis(500)).clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
    }

    private static ToolFailure failureOf(HttpTool tool) {
        return catchThrowableOfType(ToolFailure.class, () -> tool.execute(new ToolCall("r:n:0", "op-key", 1, "{}", null, null)));
    }

    @Test
    void tooManyRequests_withHttpDateRetryAfter_isRateLimited() {
        ToolFailure failure = failureOf(tool("/429/Mon,_30_Nov_2026_00:00:42_GMT"));

        assertThat(failure).isInstanceOf(RateLimitedFailure.class);
        assertThat(failure.retryAfter()).contains(Duration.ofSeconds(42));
    }

    @Test
    void tooManyRequests_withSecondsRetryAfter_isRateLimited() {
        assertThat(failureOf(tool("/429/3")).retryAfter()).contains(Duration.ofSeconds(3));
    }

    @Test
    void statuses_mapToTheirClasses() {
        assertThat(failureOf(tool("/500")).failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(failureOf(tool("/502")).failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(failureOf(tool("/503")).failureClass()).isEqualTo(FailureClass.DEPENDENCY_DOWN);
        assertThat(failureOf(tool("/400")).failureClass()).isEqualTo(FailureClass.INVALID_INPUT);
        assertThat(failureOf(tool("/422")).failureClass()).isEqualTo(FailureClass.INVALID_INPUT);
        assertThat(failureOf(tool("/401")).failureClass()).isEqualTo(FailureClass.PERMISSION);
        assertThat(failureOf(tool("/403")).failureClass()).isEqualTo(FailureClass.PERMISSION);
        assertThat(failureOf(tool("/403")).code()).isEqualTo("http_403");
    }

    @Test
    void connectionRefused_isDependencyDown() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        HttpTool tool = HttpTool.builder("test.http", "1", URI.create("http://127.0.0.1:" + closedPort + "/")).build();

        assertThat(failureOf(tool)).isInstanceOf(DependencyDownFailure.class);
    }

    @Test
    void everyCall_announcesItsRequestTimeoutInMilliseconds() throws ToolFailure {
        String answer = tool("/echo-timeout").execute(new ToolCall("r:n:0", "op-key", 1, "{}", null, null));

        assertThat(answer).isEqualTo("500");
    }

    @Test
    void idsThatAreNoHeaderText_areSentPercentEncoded_andTheCallIsMade() throws ToolFailure {
        String answer = tool("/echo-ids").execute(new ToolCall("r:n:0", "op-key", 1, "{}", "trace 追踪 é 100%",
                "corr-42"));

        assertThat(answer).isEqualTo("trace%20%E8%BF%BD%E8%B8%AA%20%C3%A9%20100%25|corr-42");
    }

    @Test
    void headerValues_printableAsciiAsItIs_anythingElseEncoded() {
        assertThat(HttpTool.headerValue("4bf92f35-77b3 4da6")).isEqualTo("4bf92f35-77b3 4da6");
        assertThat(HttpTool.headerValue(" padded")).isEqualTo("%20padded");
        assertThat(HttpTool.headerValue("tab\there")).isEqualTo("tab%09here");
        assertThat(HttpTool.headerValue("😀")).isEqualTo("%F0%9F%98%80");
    }

    @Test
    void noAnswerAfterTheRequestWasSent_isUnknownSideEffect() {
        assertThat(failureOf(tool("/stall"))).isInstanceOf(UnknownSideEffectFailure.class);
    }

    @Test
    void theLookUpsEffectsField_isTheToolsCountOfItsEffects() {
        HttpTool tool = HttpTool.builder("test.http", "1", URI.create(base() + "/200"))
                .lookupEndpoint(URI.create(base() + "/lookup/")).build();

        assertThat(tool.countEffects("twice").effects()).isEqualTo(2);
        assertThat(tool.countEffects("never").effects()).isZero();
        assertThat(tool.reconcile("twice").outcome()).isEqualTo(Reconciliation.Outcome.APPLIED);
        EffectCount silent = tool.countEffects("applied-without-a-count");
        assertThat(silent.countable()).isFalse();
        assertThat(silent.evidence()).contains("no \"effects\" count");
        assertThat(tool.reconcile("applied-without-a-count").outcome()).isEqualTo(Reconciliation.Outcome.APPLIED);
    }

    @Test
    void aToolWithoutLookUp_cannotCountItsEffects() {
        EffectCount count = tool("/200").countEffects("any-key");

        assertThat(count.countable()).isFalse();
        assertThat(count.evidence()).isEqualTo("test.http does not count its effects by idempotency key");
    }

    private static String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
