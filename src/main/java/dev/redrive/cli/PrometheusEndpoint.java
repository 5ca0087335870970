package dev.redrive.cli;

import dev.redrive.config.ConfigurationException;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;

import java.io.IOException;

/**
 * The worker's meters at {@code GET /metrics}, served by the Prometheus client's own exporter (text format, or
 * OpenMetrics and protobuf when the scraper asks for them; {@code /-/healthy} for liveness), with the JVM's memory, GC,
 * thread, CPU and uptime meters beside them. Loopback unless told otherwise: metrics name tools and failure classes,
 * which is nobody else's business by default.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    /** What a plain scrape (no Accept header asking for another format) answers with. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc;
    private final HTTPServer server;
    private final String host;

    private PrometheusEndpoint(PrometheusMeterRegistry registry, JvmGcMetrics gc, HTTPServer server, String host) {
        this.registry = registry;
        this.gc = gc;
        this.server = server;
        this.host = host;
    }

    /** Serves on {@code bind:port} (port 0: any free port); a port in use is bad input, named in one line. */
    public static PrometheusEndpoint serve(String bind, int port) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        JvmGcMetrics gc = new JvmGcMetrics();
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        try {
            HTTPServer server = HTTPServer.builder().hostname(bind).port(port)
                    .registry(registry.getPrometheusRegistry()).buildAndStart();
            return new PrometheusEndpoint(registry, gc, server, bind);
        } catch (IOException | RuntimeException e) {
            gc.close();
            registry.close();
            throw new ConfigurationException("cannot serve metrics on " + bind + ":" + port + ": " + e.getMessage()
                    + "; expected a free port (--metrics-port) on an address of this machine (--metrics-bind)");
        }
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The address actually served, {@code http://host:port/metrics}. */
    public String url() {
        return "http://" + host + ":" + server.getPort() + "/metrics";
    }

    @Override
    public void close() {
        server.close();
        gc.close();
        registry.close();
    }
}
