package dev.redrive.console.profile;

import dev.redrive.config.ConfigurationException;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.TlsSettings;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A saved place to connect to. Holds no password: that is asked at connect time or kept in the {@link PasswordVault}.
 *
 * @param tls                 TLS to both servers as {@code tlsVerify} and {@code tlsCaFile} say; without it, TLS as
 *                            the URLs say ({@code sslmode=} in the JDBC URL, {@code rediss://})
 * @param tlsVerify           {@code require}, {@code verify-ca} or {@code verify-full}; profiles saved before it
 *                            existed meant {@code require}
 * @param tlsCaFile           PEM file of the CAs that sign the servers' certificates; blank: the JVM's trusted CAs
 * @param tracerUrlTemplate   where "open in tracer" goes; {@code {trace_id}} is replaced by the trace id
 * @param tracerSpanUrlTemplate where "open in tracer" goes for an attempt whose span a tracer recorded:
 *                            {@code {trace_id}} and {@code {span_id}} are replaced; blank: the trace URL
 * @param operator            the name decisions are recorded under; blank means the OS user
 * @param lookupEndpoints     per tool, the URL its reconciliation look-up answers under (the idempotency key is
 *                            appended), e.g. {@code demo.charge -> http://127.0.0.1:8080/tools/demo.charge/effects/}
 * @param prometheusUrl       the Prometheus server that scrapes the workers, e.g. {@code http://prometheus:9090}; blank:
 *                            queue health shows no per-tool throughput
 */
public record ConnectionProfile(String name, String pgUrl, String pgUser, String redisUri, String namespace,
                                boolean tls, String tlsVerify, String tlsCaFile, String tracerUrlTemplate,
                                String operator, Map<String, String> lookupEndpoints, String tracerSpanUrlTemplate,
                                String prometheusUrl) {

    public ConnectionProfile {
        if (name == null || name.isBlank()) {
            throw new ConfigurationException("a connection profile needs a name");
        }
        name = name.trim();
        tlsVerify = tlsVerify == null || tlsVerify.isBlank() ? TlsSettings.Mode.REQUIRE.option() : tlsVerify.trim();
        tlsCaFile = tlsCaFile == null ? "" : tlsCaFile.trim();
        tracerUrlTemplate = tracerUrlTemplate == null ? "" : tracerUrlTemplate.trim();
        operator = operator == null ? "" : operator.trim();
        lookupEndpoints = lookupEndpoints == null ? Map.of() : Map.copyOf(new TreeMap<>(lookupEndpoints));
        tracerSpanUrlTemplate = tracerSpanUrlTemplate == null ? "" : tracerSpanUrlTemplate.trim();
        prometheusUrl = prometheusUrl == null ? "" : prometheusUrl.trim();
        if (!prometheusUrl.isEmpty() && !prometheusUrl.matches("https?://[^\\s/?#]+(/[^\\s?#]*)?")) {
            throw new ConfigurationException("the Prometheus URL must be the server's http:// or https:// address, such as "
                    + "http://prometheus:9090, got '" + prometheusUrl + "'");
        }
    }

    public ConnectionProfile(String name, String pgUrl, String pgUser, String redisUri, String namespace,
                             boolean tls, String tracerUrlTemplate, String operator) {
        this(name, pgUrl, pgUser, redisUri, namespace, tls, "", "", tracerUrlTemplate, operator, Map.of(), "", "");
    }

    public ConnectionProfile withLookupEndpoints(Map<String, String> endpoints) {
        return new ConnectionProfile(name, pgUrl, pgUser, redisUri, namespace, tls, tlsVerify, tlsCaFile,
                tracerUrlTemplate, operator, endpoints, tracerSpanUrlTemplate, prometheusUrl);
    }

    public ConnectionProfile withTls(String verify, String caFile) {
        return new ConnectionProfile(name, pgUrl, pgUser, redisUri, namespace, true, verify, caFile,
                tracerUrlTemplate, operator, lookupEndpoints, tracerSpanUrlTemplate, prometheusUrl);
    }

    /** Parses {@code tool=url, tool=url} (REDRIVE_LOOKUP_ENDPOINTS and the profile editor's field). */
    public static Map<String, String> parseLookupEndpoints(String text) {
        Map<String, String> endpoints = new TreeMap<>();
        if (text == null || text.isBlank()) {
            return endpoints;
        }
        for (String pair : text.split("[,;\\s]+")) {
            if (pair.isBlank()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals <= 0 || equals == pair.length() - 1) {
                throw new ConfigurationException("a reconciliation look-up is written tool=url, got '" + pair + "'");
            }
            endpoints.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
        }
        return endpoints;
    }

    /** The inverse of {@link #parseLookupEndpoints}. */
    public String lookupEndpointsText() {
        return lookupEndpoints.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /** The profile for the REDRIVE_* settings the console was started with. */
    public static ConnectionProfile of(String name, RedriveConfig config) {
        TlsSettings settings = config.tls();
        return new ConnectionProfile(name, config.pgUrl(), config.pgUser(), config.redisUri(), config.namespace(),
                settings.enabled(), settings.mode().option(), settings.caFile() == null ? "" : settings.caFile().toString(),
                "", "", Map.of(), "", "");
    }

    /** The configuration to connect with; validates every field and names the one that is wrong. */
    public RedriveConfig toConfig(String password) {
        return new RedriveConfig(pgUrl, pgUser, password, redisUri, namespace,
                tls ? TlsSettings.parse(tlsVerify, tlsCaFile) : TlsSettings.AS_URLS);
    }

    /** {@link #lookupEndpoints()} as addresses, as the triage services take them. */
    public Map<String, URI> lookupUris() {
        Map<String, URI> uris = new HashMap<>();
        lookupEndpoints.forEach((tool, url) -> uris.put(tool, URI.create(url)));
        return uris;
    }

    /** The operator decisions are recorded under: the profile's, else the OS account's name. */
    public String operatorOrOsUser() {
        return operator.isBlank() ? System.getProperty("user.name", "operator") : operator;
    }
}
