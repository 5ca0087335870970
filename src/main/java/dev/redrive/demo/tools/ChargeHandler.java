package dev.redrive.demo.tools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/** {@code POST /tools/demo.charge}: hands the call to the {@link ChargeDesk}, then answers or stalls a lost answer. */
final class ChargeHandler implements HttpHandler {
    static final String PATH = "/tools/" + ChargeDesk.TOOL;

    private final ChargeDesk desk;
    private final Clock clock;
    private final Supplier<Duration> stall;

    ChargeHandler(ChargeDesk desk, Clock clock, Supplier<Duration> stall) {
        this.desk = desk;
        this.clock = clock;
        this.stall = stall;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!PATH.equals(exchange.getRequestURI().getRawPath())) {
                HttpExchanges.send(exchange, ToolAnswer.of(404, "{\"error\":\"not_found\",\"message\":\"no such tool\"}"));
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                HttpExchanges.sendMethodNotAllowed(exchange, "POST");
                return;
            }
            ChargeRequest request = new ChargeRequest(
                    exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                    exchange.getRequestHeaders().getFirst("X-Operation-Id"),
                    attempt(exchange.getRequestHeaders().getFirst("X-Attempt")),
                    HttpExchanges.body(exchange),
                    clock.instant());
            ToolAnswer answer;
            try {
                answer = desk.charge(request);
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
