package dev.redrive.demo.tools;

import com.sun.net.httpserver.HttpExchange;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/** Reading requests and writing {@link ToolAnswer}s on the JDK HTTP server. */
final class HttpExchanges {
    private static final Logger LOG = LoggerFactory.getLogger(HttpExchanges.class);
    private static final int MAX_BODY_BYTES = 1 << 20;

    private HttpExchanges() {
    }

    static String body(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                throw new IOException("request body over " + MAX_BODY_BYTES + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    static void send(HttpExchange exchange, ToolAnswer answer) throws IOException {
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        answer.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        exchange.sendResponseHeaders(answer.status(), bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * The desk's answer to the exchange; 500 for a failure of the service itself (its database gone, say), which a
     * client sees as transient.
     */
    static ToolAnswer deskAnswer(HttpExchange exchange, Supplier<ToolAnswer> desk) {
        try {
            return desk.get();
        } catch (RuntimeException failure) {
            LOG.warn("demo tool service failed on {} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI(),
                    failure.toString());
            return ToolAnswer.of(500, "{\"error\":\"service_failure\",\"message\":\"the demo tool service failed\"}");
        }
    }

    static void sendMethodNotAllowed(HttpExchange exchange, String allowed) throws IOException {
        exchange.getResponseHeaders().set("Allow", allowed);
        send(exchange, ToolAnswer.of(405, "{\"error\":\"method_not_allowed\",\"message\":\"use " + allowed + "\"}"));
    }
}
