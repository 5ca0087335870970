package dev.redrive.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Prometheus server of a test's own (the {@code prometheus} binary, e.g. from the distribution's package), on a free
 * port, scraping one target every second, with its data in a temporary folder.
 */
public final class PrometheusServerProcess implements AutoCloseable {
    private final int port;
    private final Path dir;
    private final Process process;

    private PrometheusServerProcess(int port, Path dir, Process process) {
        this.port = port;
        this.dir = dir;
        this.process = process;
    }

    /** Starts a server that scrapes {@code target} ({@code host:port}, path /metrics) every second. */
    public static PrometheusServerProcess scraping(String target) {
        OsCommands.assumeInstalled("a real Prometheus scraping a worker", "prometheus");
        try {
            Path dir = Files.createTempDirectory("redrive-prometheus-");
            Files.writeString(dir.resolve("prometheus.yml"), """
                    global:
                      scrape_interval: 1s
                      evaluation_interval: 1s
                    scrape_configs:
                      - job_name: redrive-worker
                        static_configs:
                          - targets: ['%s']
                    """.formatted(target));
            int port = FreePort.next();
            Process process = new ProcessBuilder(List.of("prometheus",
                    "--config.file=" + dir.resolve("prometheus.yml"), "--storage.tsdb.path=" + dir.resolve("data"),
                    "--web.listen-address=127.0.0.1:" + port))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
            PrometheusServerProcess server = new PrometheusServerProcess(port, dir, process);
            server.awaitReady();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start prometheus (is it on the PATH? apt-get install prometheus)", e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                HttpResponse<Void> ready = http.send(HttpRequest.newBuilder(URI.create(url() + "/-/ready")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (System.nanoTime() > deadline || !process.isAlive()) {
                throw new IllegalStateException("prometheus on port " + port + " did not start: see " + dir);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void close() throws InterruptedException, IOException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
    }
}
