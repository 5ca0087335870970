package dev.redrive.health;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-tool throughput and failure rate of one namespace over the last hour, asked of the Prometheus server that scrapes
 * the workers ({@code worker --metrics-port}) through its HTTP API: two instant queries of
 * {@code increase(redrive_attempts_total[1h])}, all attempts and those that did not succeed, summed by tool. Blocks;
 * run it off the UI thread.
 */
public final class PrometheusThroughput {
    /** How far back the numbers look. */
    public static final Duration WINDOW = Duration.ofHours(1);

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String server;
    private final String namespace;
    private final HttpClient http;

    /** {@code server} is the Prometheus server's address, such as {@code http://prometheus:9090}. */
    public PrometheusThroughput(String server, String namespace) {
        this.server = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
        this.namespace = namespace;
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    public String server() {
        return server;
    }

    /**
     * Every tool Prometheus has attempts of in the namespace, busiest first.
     *
     * @throws PrometheusUnavailableException naming in one line why the numbers could not be had
     */
    public List<ToolThroughput> read() {
        String series = "redrive_attempts_total{namespace=\"" + labelValue(namespace) + "\"";
        Map<String, Double> attempts = sumByTool("sum by (tool) (increase(" + series + "}[1h]))");
        Map<String, Double> failed = sumByTool("sum by (tool) (increase(" + series + ",outcome!=\"SUCCEEDED\"}[1h]))");
        List<ToolThroughput> tools = new ArrayList<>();
        attempts.forEach((tool, count) -> tools.add(new ToolThroughput(tool, count / WINDOW.toSeconds(),
                count <= 0 ? 0 : Math.min(1, failed.getOrDefault(tool, 0.0) / count))));
        tools.sort(Comparator.comparingDouble(ToolThroughput::attemptsPerSecond).reversed()
                .thenComparing(ToolThroughput::tool));
        return tools;
    }

    /** The value of each series of an instant query, by its {@code tool} label. */
    private Map<String, Double> sumByTool(String query) {
        URI uri = URI.create(server + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw unavailable("did not answer within " + TIMEOUT.toSeconds() + " s");
        } catch (IOException e) {
            throw unavailable("is not reachable (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("was not asked: interrupted");
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            body = null;
        }
        if (body == null || !body.has("status")) {
            throw unavailable("answered HTTP " + response.statusCode() + " without the query API's JSON; expected the "
                    + "server's address, such as http://prometheus:9090");
        }
        if (!body.path("status").asText().equals("success")) {
            throw unavailable("refused the query: " + body.path("errorType").asText() + ": " + body.path("error").asText());
        }
        Map<String, Double> values = new HashMap<>();
        for (JsonNode series : body.path("data").path("result")) {
            double value = Double.parseDouble(series.path("value").path(1).asText("0"));
            values.put(series.path("metric").path("tool").asText("none"), Double.isNaN(value) ? 0 : value);
        }
        return values;
    }

    private PrometheusUnavailableException unavailable(String why) {
        return new PrometheusUnavailableException("Prometheus at " + server + " " + why);
    }

    /** A PromQL string literal's content: backslashes and quotes escaped. */
    private static String labelValue(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** Prometheus could not give the numbers: its message is one line naming the server and why. */
    public static final class PrometheusUnavailableException extends RuntimeException {
        public PrometheusUnavailableException(String message) {
            super(message);
        }
    }
}
