package dev.redrive.console.health;

import com.sun.net.httpserver.HttpServer;
import dev.redrive.cli.PrometheusEndpoint;
import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Theme;
import dev.redrive.health.HealthThresholds;
import dev.redrive.health.PrometheusThroughput;
import dev.redrive.health.QueueHealthReader;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.FirstCallFails;
import dev.redrive.testing.FreePort;
import dev.redrive.testing.PrometheusServerProcess;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import io.micrometer.core.instrument.search.Search;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * Queue health with a Prometheus server in the profile: a real Prometheus scrapes a real worker's {@code /metrics}
 * every second, and the tile shows each tool's attempts per second and failed share over the last hour as Prometheus
 * computes them from what the worker counted; an unreachable server or a wrong URL is one line in the tile; without a
 * server the tile is not there.
 */
@ExtendWith(ApplicationExtension.class)
class ThroughputTileTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final UiExecutor executor = UiExecutor.forFx(2);

    private static PrometheusEndpoint metrics;
    private static PrometheusServerProcess prometheus;
    private Stage stage;

    @BeforeAll
    static void workScrapedByPrometheus() throws Exception {
        metrics = PrometheusEndpoint.serve("127.0.0.1", 0);
        String target = metrics.url().substring("http://".length(), metrics.url().length() - "/metrics".length());
        prometheus = PrometheusServerProcess.scraping(target);
        Worker worker = Worker.builder(ns.database(), ns.redis()).tool(new AnswersAtOnce("test.steady")).tool(new FirstCallFails("test.flaky"))
                .meterRegistry(metrics.registry()).claimInterval(Duration.ofMillis(200)).build().start();
        // Prometheus scrapes the counters at zero first, as a running worker's are before its first attempt: the
        // hour's increase then counts every attempt (two samples make a series' increase, 0 for now).
        PrometheusThroughput asked = new PrometheusThroughput(prometheus.url(), ns.name());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> asked.read().size() == 2);
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        for (int i = 0; i < 10; i++) {
            client.dispatch(client.newDispatch(new OperationId("tile", "steady-" + i, 0), "test.steady", "1", "{}",
                    null, null, null));
            client.dispatch(client.newDispatch(new OperationId("tile", "flaky-" + i, 0), "test.flaky", "1", "{}",
                    null, null, null));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> ns.database().jdbc().queryOne(
                "SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'", row -> row.getInt(1)).orElse(0) == 20);
        worker.shutdown().get(15, TimeUnit.SECONDS);
        assertThat(counted("test.flaky")).isEqualTo(20);
        assertThat(counted("test.steady")).isEqualTo(10);
    }

    @AfterAll
    static void stopServers() throws Exception {
        executor.close();
        if (prometheus != null) {
            prometheus.close();
        }
        if (metrics != null) {
            metrics.close();
        }
    }

    /** Attempts of a tool the worker counted in its registry. */
    private static double counted(String tool) {
        return Search.in(metrics.registry()).name("redrive.attempts").tag("tool", tool).counters().stream()
                .mapToDouble(counter -> counter.count()).sum();
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
        Theme.apply(false);
    }

    private HealthPanelViewModel show(FxRobot robot, String prometheusUrl) {
        HealthPanelViewModel model = new HealthPanelViewModel(
                new QueueHealthReader(ns.database(), ns.redis(), Clock.systemUTC())::read,
                prometheusUrl == null ? null : new PrometheusThroughput(prometheusUrl, ns.name())::read, executor,
                new HealthThresholds(0, 0, Duration.ZERO));
        robot.interact(() -> {
            ThemedStage.show(stage, new HBox(HealthPanelView.load(model).root()), 1400, 220);
        });
        return model;
    }

    private static List<String> row(GridPane rows, int index) {
        return rows.getChildren().stream().filter(cell -> GridPane.getRowIndex(cell) == index)
                .sorted((a, b) -> GridPane.getColumnIndex(a) - GridPane.getColumnIndex(b))
                .map(cell -> ((Label) cell).getText()).toList();
    }

    @Test
    void theTile_showsEachToolsRateAndFailedShare_asPrometheusComputesThemFromTheWorkersCounters(FxRobot robot) {
        HealthPanelViewModel model = show(robot, prometheus.url());
        // Until Prometheus has scraped the last attempts, its hour holds fewer than the worker counted.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            robot.interact(model::refreshThroughput);
            String read = model.throughputStatusProperty().get() + " " + model.throughput();
            assertThat(model.throughput()).as(read).hasSize(2);
            assertThat(model.throughput().get(0).attemptsPerSecond() * 3600).as(read)
                    .isGreaterThanOrEqualTo(counted("test.flaky") - 0.5);
        });

        var flaky = model.throughput().get(0);
        var steady = model.throughput().get(1);
        assertThat(flaky.tool()).isEqualTo("test.flaky");
        assertThat(steady.tool()).isEqualTo("test.steady");
        // increase() extrapolates each series past its first and last scrape, by up to about a scrape interval's worth
        // each: at least what the worker counted, and, over the few scrapes of a short test, at most half again.
        assertThat(flaky.attemptsPerSecond() * 3600).isBetween(counted("test.flaky") - 0.5, counted("test.flaky") * 1.5);
        assertThat(steady.attemptsPerSecond() * 3600).isBetween(counted("test.steady") - 0.5, counted("test.steady") * 1.5);
        assertThat(flaky.failureRatio()).as("one failed attempt of two").isCloseTo(0.5, within(0.05));
        assertThat(steady.failureRatio()).isZero();

        GridPane rows = robot.lookup("#healthThroughputRows").queryAs(GridPane.class);
        assertThat(robot.lookup("#healthThroughput").queryAs(Node.class).isVisible()).isTrue();
        assertThat(row(rows, 0)).containsExactly("test.flaky", HealthPanelViewModel.perSecond(flaky.attemptsPerSecond()),
                HealthPanelViewModel.failedShare(flaky.failureRatio()));
        assertThat(row(rows, 1)).containsExactly("test.steady",
                HealthPanelViewModel.perSecond(steady.attemptsPerSecond()), "0.0% failed");
        assertThat(robot.lookup("#healthThroughputStatus").queryLabeled().getText()).startsWith("last hour · read ");
    }

    @Test
    void aPrometheusThatDoesNotAnswer_isOneLineInTheTile(FxRobot robot) throws Exception {
        int closed = FreePort.next();
        HealthPanelViewModel model = show(robot, "http://127.0.0.1:" + closed);
        robot.interact(model::refreshThroughput);

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(robot.lookup("#healthThroughputStatus").queryLabeled().getText())
                        .isEqualTo("Prometheus at http://127.0.0.1:" + closed + " is not reachable (ConnectException)"));
        assertThat(robot.lookup("#healthThroughputRows").queryAs(GridPane.class).getChildren()).isEmpty();
    }

    @Test
    void aUrlThatIsNoPrometheus_isNamedInTheTile(FxRobot robot) throws IOException {
        // Some other web server, as a mistyped URL reaches: it knows no /api/v1/query and answers 404.
        HttpServer otherServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        otherServer.start();
        try {
            String notPrometheus = "http://127.0.0.1:" + otherServer.getAddress().getPort();
            HealthPanelViewModel model = show(robot, notPrometheus);
            robot.interact(model::refreshThroughput);

            await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                    assertThat(robot.lookup("#healthThroughputStatus").queryLabeled().getText())
                            .isEqualTo("Prometheus at " + notPrometheus + " answered HTTP 404 without the query API's "
                                    + "JSON; expected the server's address, such as http://prometheus:9090"));
        } finally {
            otherServer.stop(0);
        }
    }

    @Test
    void withoutAPrometheusServer_theHealthPanelHasNoThroughputTile(FxRobot robot) {
        HealthPanelViewModel model = show(robot, null);
        robot.interact(model::refreshThroughput);

        Node tile = robot.lookup("#healthThroughput").queryAs(Node.class);
        assertThat(tile.isVisible()).isFalse();
        assertThat(tile.isManaged()).isFalse();
        assertThat(model.throughputStatusProperty().get()).isEqualTo("not read yet");
    }
}
