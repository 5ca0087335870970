package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.config.ConfigurationException;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.FirstCallFails;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code worker --metrics-port} serves the worker's meters as Prometheus text over HTTP, and every series that
 * docs/embedding.md and the Grafana dashboard in docs/ name is among them.
 */
class PrometheusEndpointTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Pattern SERIES = Pattern.compile("\\bredrive_[a-z_]+");

    @Test
    void aScrape_showsTheWorkersSeriesInPrometheusTextFormat_includingEveryOneTheDashboardQueries() throws Exception {
        String body;
        try (PrometheusEndpoint endpoint = PrometheusEndpoint.serve("127.0.0.1", 0)) {
            Worker worker = Worker.builder(ns.database(), ns.redis()).tool(new FirstCallFails("test.flaky"))
                    .meterRegistry(endpoint.registry()).claimInterval(Duration.ofMillis(200)).build().start();
            WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
            OperationId id = new OperationId("scraped", "flaky", 0);
            client.dispatch(client.newDispatch(id, "test.flaky", "1", "{}", null, null, null));
            await().atMost(Duration.ofSeconds(20)).until(() -> ns.database().jdbc().queryOne(
                    "SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), id.value())
                    .orElse("").equals("SUCCEEDED"));
            // The gauges are sampled when the worker starts and every 5 s after.
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(endpoint.url())).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            worker.shutdown().get(15, TimeUnit.SECONDS);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).contains(PrometheusEndpoint.CONTENT_TYPE);
            body = response.body();
        }
        String namespace = "namespace=\"" + ns.name() + "\"";
        assertThat(body).contains("# TYPE redrive_attempts_total counter")
                .containsPattern("redrive_attempts_total\\{class=\"TRANSIENT\",[^}]*" + namespace
                        + ",outcome=\"RETRY_SCHEDULED\",tool=\"test.flaky\"} 1\\.0")
                .containsPattern("redrive_attempts_total\\{class=\"none\",[^}]*outcome=\"SUCCEEDED\",tool=\"test.flaky\"} 1\\.0")
                .containsPattern("redrive_tool_call_seconds_bucket\\{[^}]*tool=\"test.flaky\"")
                .contains("jvm_memory_used_bytes");

        Set<String> served = seriesIn(body);
        Set<String> dashboard = seriesIn(Files.readString(Path.of("docs", "grafana-dashboard.json")));
        assertThat(dashboard).isNotEmpty();
        assertThat(served).as("every series the dashboard queries is served").containsAll(dashboard);
        JsonNode panels = new ObjectMapper().readTree(Path.of("docs", "grafana-dashboard.json").toFile()).get("panels");
        assertThat(panels).allSatisfy(panel -> assertThat(panel.get("targets")).isNotEmpty());
        String readme = Files.readString(Path.of("docs", "embedding.md"));
        int section = readme.indexOf("### Metrics");
        assertThat(section).as("docs/embedding.md has a Metrics section").isNotNegative();
        int end = readme.indexOf("\n#", section + 1);
        Set<String> documented = seriesIn(readme.substring(section, end < 0 ? readme.length() : end));
        assertThat(documented).as("the Metrics section lists series").hasSizeGreaterThan(10);
        assertThat(served).as("every series the documentation lists is served").containsAll(documented);
    }

    @Test
    void aPortInUse_isOneLineNamingTheOptions_andTheFirstEndpointKeepsServing() throws Exception {
        try (PrometheusEndpoint first = PrometheusEndpoint.serve("127.0.0.1", 0)) {
            int port = URI.create(first.url()).getPort();

            assertThatThrownBy(() -> PrometheusEndpoint.serve("127.0.0.1", port))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageStartingWith("cannot serve metrics on 127.0.0.1:" + port + ": ")
                    .hasMessageEndingWith("expected a free port (--metrics-port) on an address of this machine "
                            + "(--metrics-bind)")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(first.url())).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("jvm_memory_used_bytes");
        }
    }

    private static Set<String> seriesIn(String text) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = SERIES.matcher(text);
        while (matcher.find()) {
            names.add(matcher.group());
        }
        return names;
    }
}
