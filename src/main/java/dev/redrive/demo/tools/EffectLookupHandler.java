package dev.redrive.demo.tools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** {@code GET /tools/{tool}/effects/{idempotencyKey}}: the reconciliation look-up. */
final class EffectLookupHandler implements HttpHandler {
    private final String prefix;
    private final ToolDesk desk;

    EffectLookupHandler(DemoTool tool, ToolDesk desk) {
        this.prefix = tool.lookupPrefix();
        this.desk = desk;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                HttpExchanges.sendMethodNotAllowed(exchange, "GET");
                return;
            }
            String path = exchange.getRequestURI().getRawPath();
            String key = path.startsWith(prefix)
                    ? URLDecoder.decode(path.substring(prefix.length()), StandardCharsets.UTF_8) : "";
            if (key.isBlank() || key.contains("/")) {
                HttpExchanges.send(exchange, ToolAnswer.of(400,
                        "{\"error\":\"invalid_request\",\"message\":\"append the idempotency key to " + prefix + "\"}"));
                return;
            }
            ToolAnswer answer = HttpExchanges.deskAnswer(exchange, () -> desk.lookup(key));
            HttpExchanges.send(exchange, answer);
        }
    }
}
