package dev.redrive.demo.tools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/** {@code POST /tools/{tool}}: hands the call to the tool's {@link ToolDesk}, then answers or stalls a lost answer. */
final class CallHandler implements HttpHandler {
    private final String path;
    private final ToolDesk desk;
    private final Clock clock;
    private final Supplier<Duration> stall;

    CallHandler(DemoTool tool, ToolDesk desk, Clock clock, Supplier<Duration> stall) {
        this.path = tool.path();
        this.desk = desk;
        this.clock = clock;
        this.stall = stall;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!path.equals(exchange.getRequestURI().getRawPath())) {
                HttpExchanges.send(exchange, ToolAnswer.of(404, "{\"error\":\"not_found\",\"message\":\"no such tool\"}"));
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                HttpExchanges.sendMethodNotAllowed(exchange, "POST");
                return;
            }
            ToolCall request = new ToolCall(
                    exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                    exchange.getRequestHeaders().getFirst("X-Operation-Id"),
                    attempt(exchange.getRequestHeaders().getFirst("X-Attempt")),
                    HttpExchanges.body(exchange),
                    clock.instant());
            ToolAnswer answer;
            try {
                answer = desk.call(request);
            } catch (RuntimeException e) {
                HttpExchanges.sendServiceFailure(exchange, e);
                return;
            }
            if (answer.lost() && !stallPast()) {
                return;
            }
            HttpExchanges.send(exchange, answer);
        }
    }

    /** Holds the answer back until the client has surely given up; false when the server is closing meanwhile. */
    private boolean stallPast() {
        try {
            Thread.sleep(stall.get().toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Integer attempt(String header) {
        if (header == null) {
            return null;
        }
        try {
            return Integer.valueOf(header.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
