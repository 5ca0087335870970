package dev.redrive.triage.decision.lookup;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.worker.tool.EffectCount;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Looks effects up over HTTP by the look-up contract (docs/tool-lookup.md): {@code GET <endpoint><idempotency key>}
 * gives 200 {@code {"applied":true,"result":{...},"effects":1}}, 404 {@code {"applied":false,"effects":0}}, anything
 * else means nobody can tell; {@code effects} is optional and counts the effects applied for the key.
 */
public final class HttpSideEffectLookup implements SideEffectLookup {
    private final Supplier<Map<String, URI>> endpointsByTool;
    private final HttpClient http;
    private final Duration timeout;

    public HttpSideEffectLookup(Map<String, URI> endpointsByTool, Duration timeout) {
        this(constant(Map.copyOf(endpointsByTool)), timeout);
    }

    /** @param endpointsByTool asked at each look-up: for endpoints that come and go while the lookup is kept */
    public HttpSideEffectLookup(Supplier<Map<String, URI>> endpointsByTool, Duration timeout) {
        this.endpointsByTool = endpointsByTool;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.timeout = timeout;
    }

    private static Supplier<Map<String, URI>> constant(Map<String, URI> endpoints) {
        return () -> endpoints;
    }

    /** One tool's look-up endpoint, e.g. the demo tools' {@code .../tools/demo.charge/effects/}. */
    public static HttpSideEffectLookup forTool(String tool, URI endpoint) {
        return new HttpSideEffectLookup(Map.of(tool, endpoint), Duration.ofSeconds(5));
    }

    @Override
    public LookupAnswer lookUp(String tool, String idempotencyKey) {
        URI endpoint = endpointsByTool.get().get(tool);
        if (endpoint == null) {
            return new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, "no reconciliation look-up is configured for " + tool);
        }
        Exchange exchange = get(endpoint, idempotencyKey);
        if (exchange.response() == null) {
            return new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, exchange.said());
        }
        return switch (exchange.response().statusCode()) {
            case 200 -> applied(exchange.response().body(), exchange.said());
            case 404 -> new LookupAnswer(ReconciliationOutcome.NOT_APPLIED, null, exchange.said());
            default -> new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, exchange.said());
        };
    }

    /** The same endpoint; its answer counts when it carries {@code "effects": N} (docs/tool-lookup.md). */
    @Override
    public EffectCount countEffects(String tool, String idempotencyKey) {
        URI endpoint = endpointsByTool.get().get(tool);
        if (endpoint == null) {
            return EffectCount.notCountable("no look-up endpoint is configured for " + tool);
        }
        Exchange exchange = get(endpoint, idempotencyKey);
        return exchange.response() == null ? EffectCount.notCountable(exchange.said())
                : EffectCount.fromLookupAnswer(exchange.response().statusCode(), exchange.response().body(), exchange.said());
    }

    private Exchange get(URI endpoint, String idempotencyKey) {
        URI uri = URI.create(endpoint.toString() + URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Exchange(response, "GET " + uri + " answered " + response.statusCode() + " " + response.body());
        } catch (IOException e) {
            return new Exchange(null, "GET " + uri + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Exchange(null, "GET " + uri + " was interrupted");
        }
    }

    private record Exchange(HttpResponse<String> response, String said) {
    }

    private static LookupAnswer applied(String body, String said) {
        JsonNode answer;
        try {
            answer = TriageJson.parse(body);
        } catch (RuntimeException e) {
            return new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, said + " (not JSON)");
        }
        if (answer != null && answer.path("applied").asBoolean(false)) {
            return new LookupAnswer(ReconciliationOutcome.APPLIED, answer.get("result"), said);
        }
        return new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, said + " (no \"applied\": true)");
    }
}
