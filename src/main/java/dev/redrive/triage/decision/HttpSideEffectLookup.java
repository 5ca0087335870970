package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.triage.json.TriageJson;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Looks effects up over HTTP the way the demo tools answer: {@code GET <endpoint><idempotency key>} gives 200
 * {@code {"applied":true,"result":{...}}}, 404 {@code {"applied":false}}, anything else means nobody can tell.
 */
public final class HttpSideEffectLookup implements SideEffectLookup {
    private final Map<String, URI> endpointsByTool;
    private final HttpClient http;
    private final Duration timeout;

    public HttpSideEffectLookup(Map<String, URI> endpointsByTool, Duration timeout) {
        this.endpointsByTool = Map.copyOf(endpointsByTool);
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.timeout = timeout;
    }

    /** One tool's look-up endpoint, e.g. the demo tools' {@code .../tools/demo.charge/effects/}. */
    public static HttpSideEffectLookup forTool(String tool, URI endpoint) {
        return new HttpSideEffectLookup(Map.of(tool, endpoint), Duration.ofSeconds(5));
    }

    @Override
    public LookupAnswer lookUp(String tool, String idempotencyKey) {
        URI endpoint = endpointsByTool.get(tool);
        if (endpoint == null) {
            return new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, "no reconciliation look-up is configured for " + tool);
        }
        URI uri = URI.create(endpoint.toString() + URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            String said = "GET " + uri + " answered " + response.statusCode() + " " + response.body();
            return switch (response.statusCode()) {
                case 200 -> applied(response.body(), said);
                case 404 -> new LookupAnswer(ReconciliationOutcome.NOT_APPLIED, null, said);
                default -> new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, said);
            };
        } catch (IOException e) {
            return new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, "GET " + uri + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LookupAnswer(ReconciliationOutcome.UNKNOWN, null, "GET " + uri + " was interrupted");
        }
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
