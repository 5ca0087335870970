package dev.redrive.demo.tools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.redrive.worker.tool.HttpTool;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/** {@code POST /tools/{tool}}: hands the call to the tool's {@link ToolDesk}, then answers or stalls a lost answer. */
final class CallHandler implements HttpHandler {
    /** The client's request timeout in milliseconds, as Redrive's HttpTool sends it with every call. */
    private static final String REQUEST_TIMEOUT_HEADER = "Request-Timeout-Ms";
    /** How much longer than the client's timeout a lost answer is held: time for its timer to fire on a busy box. */
    private static final Duration PAST_CLIENT_TIMEOUT = Duration.ofSeconds(1);

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
            ReceivedCall request = new ReceivedCall(
                    exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                    exchange.getRequestHeaders().getFirst("X-Operation-Id"),
                    attempt(exchange.getRequestHeaders().getFirst("X-Attempt")),
                    HttpExchanges.body(exchange),
                    clock.instant(),
                    deadline(exchange.getRequestHeaders().getFirst(HttpTool.DEADLINE_HEADER)));
            ToolAnswer answer = HttpExchanges.deskAnswer(exchange, () -> desk.call(request));
            if (answer.lost() && !holdBack(holdFor(exchange.getRequestHeaders().getFirst(REQUEST_TIMEOUT_HEADER)))) {
                return;
            }
            HttpExchanges.send(exchange, answer);
        }
    }

    /**
     * How long to hold a lost answer so that the client has surely given up: past the request timeout it announced,
     * else (no header, or not a whole number of milliseconds) the server's configured stall.
     */
    private Duration holdFor(String announcedTimeout) {
        if (announcedTimeout != null) {
            try {
                long millis = Long.parseLong(announcedTimeout.strip());
                if (millis >= 0) {
                    // Capped so that adding the margin cannot overflow: such a client is held until the server stops.
                    return Duration.ofMillis(Math.min(millis, Long.MAX_VALUE - PAST_CLIENT_TIMEOUT.toMillis()))
                            .plus(PAST_CLIENT_TIMEOUT);
                }
            } catch (NumberFormatException e) {
                // Not a timeout that can be honoured: held as for a client that does not say.
            }
        }
        return stall.get();
    }

    /** Holds the answer back; false when the server stops meanwhile (it interrupts the holding thread). */
    private static boolean holdBack(Duration hold) {
        try {
            Thread.sleep(hold.toMillis());
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

    /** The call's deadline, epoch milliseconds; none when the header is missing or not a number. */
    private static Instant deadline(String header) {
        if (header == null) {
            return null;
        }
        try {
            return Instant.ofEpochMilli(Long.parseLong(header.strip()));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
