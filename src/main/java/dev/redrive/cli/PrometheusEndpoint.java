package dev.redrive.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.redrive.config.ConfigurationException;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The worker's meters in Prometheus text format at {@code GET /metrics}, on the JDK's own HTTP server, with the JVM's
 * memory, GC, thread, CPU and uptime meters beside them. Loopback unless told otherwise: metrics name tools and
 * failure classes, which is nobody else's business by default.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final HttpServer server;

    private PrometheusEndpoint(HttpServer server) {
        this.server = server;
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        server.createContext("/metrics", this::scrape);
        server.start();
    }

    /** Serves on {@code bind:port} (port 0: any free port); a port in use is bad input, named in one line. */
    public static PrometheusEndpoint serve(String bind, int port) {
        try {
            return new PrometheusEndpoint(HttpServer.create(new InetSocketAddress(bind, port), 0));
        } catch (IOException e) {
            throw new ConfigurationException("cannot serve metrics on " + bind + ":" + port + ": " + e.getMessage()
                    + "; expected a free port (--metrics-port) on an address of this machine (--metrics-bind)");
        }
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The address actually served, {@code http://host:port/metrics}. */
    public String url() {
        InetSocketAddress address = server.getAddress();
        return "http://" + address.getHostString() + ":" + address.getPort() + "/metrics";
    }

    private void scrape(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        gc.close();
        registry.close();
    }
}
