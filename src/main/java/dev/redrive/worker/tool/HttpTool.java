package dev.redrive.worker.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * A {@link Tool} that POSTs the payload to an HTTP endpoint with the operation's {@code Idempotency-Key}, and looks
 * effects up with {@code GET lookupEndpoint + idempotencyKey}: 200 {@code {"applied":true,"result":{...},"effects":1}},
 * 404 {@code {"applied":false,"effects":0}}; the optional {@code effects} field counts the effects applied for the key,
 * which is what {@link #countEffects} reads (docs/tool-lookup.md). Every call also sends its request timeout in
 * milliseconds as {@code Request-Timeout-Ms}, so the remote side knows when an answer would no longer be heard (the
 * demo tools hold their lost answers past it).
 *
 * <p>How answers and errors are classified:
 * <ul>
 *   <li>2xx: success, the body is the result;</li>
 *   <li>429: {@link RateLimitedFailure}, honouring {@code Retry-After} (seconds or HTTP-date);</li>
 *   <li>503 and connection refused: {@link DependencyDownFailure};</li>
 *   <li>other 5xx, 408, and a connect timeout (nothing was sent): {@link TransientFailure};</li>
 *   <li>400, 422 and other 4xx: {@link InvalidInputFailure}; 401, 403: {@link PermissionFailure};</li>
 *   <li>a timeout or I/O error once the request may have been sent: {@link UnknownSideEffectFailure}.</li>
 * </ul>
 */
public final class HttpTool implements Tool {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_ERROR_BODY = 500;
    private static final String REQUEST_TIMEOUT_HEADER = "Request-Timeout-Ms";
    /**
     * The end of the worker's lease, epoch milliseconds in the worker's (the database's) clock: a request arriving later
     * comes from a worker paused past its lease and should be answered 408 without acting (docs/tool-lookup.md).
     */
    public static final String DEADLINE_HEADER = "Call-Deadline";

    private final String name;
    private final String schemaVersion;
    private final URI endpoint;
    private final URI lookupEndpoint;
    private final Duration requestTimeout;
    private final HttpClient client;
    private final Clock clock;

    private HttpTool(Builder builder) {
        this.name = builder.name;
        this.schemaVersion = builder.schemaVersion;
        this.endpoint = builder.endpoint;
        this.lookupEndpoint = builder.lookupEndpoint;
        this.requestTimeout = builder.requestTimeout;
        this.clock = builder.clock;
        this.client = builder.client != null ? builder.client : HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(builder.connectTimeout)
                .build();
    }

    /** Starts a tool definition: its name, payload schema version and the endpoint it POSTs to. */
    public static Builder builder(String name, String schemaVersion, URI endpoint) {
        return new Builder(name, schemaVersion, endpoint);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String schemaVersion() {
        return schemaVersion;
    }

    @Override
    public String execute(ToolCall call) throws ToolFailure {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", call.idempotencyKey())
                .header("X-Operation-Id", call.operationId())
                .header("X-Attempt", Integer.toString(call.attempt()))
                .header(REQUEST_TIMEOUT_HEADER, Long.toString(requestTimeout.toMillis()))
                .POST(HttpRequest.BodyPublishers.ofString(call.payload()));
        if (call.deadline() != null) {
            request.header(DEADLINE_HEADER, Long.toString(call.deadline().toEpochMilli()));
        }
        if (call.traceId() != null) {
            request.header("X-Trace-Id", headerValue(call.traceId()));
        }
        if (call.correlationId() != null) {
            request.header("X-Correlation-Id", headerValue(call.correlationId()));
        }
        // The current span is the worker's tool-call span: the service's own spans become its children. Without a
        // span (a worker without an SDK, a dispatch without traceparent) nothing is added.
        W3CTraceContextPropagator.getInstance().inject(Context.current(), request, HttpRequest.Builder::header);
        HttpResponse<String> response = send(request.build());
        return classify(response);
    }

    /**
     * The wire contract lets a trace or correlation id hold any printable text, an HTTP header only printable ASCII
     * (the client refuses anything else before it sends): such an id is sent percent-encoded as UTF-8, as a URL
     * would carry it, instead of failing a call that was never made. Printable ASCII without leading or trailing
     * spaces is sent as it is.
     */
    static String headerValue(String value) {
        boolean plain = !value.isEmpty() && value.charAt(0) != ' ' && value.charAt(value.length() - 1) != ' '
                && value.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
        if (plain) {
            return value;
        }
        StringBuilder encoded = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int unsigned = b & 0xff;
            if (unsigned > 0x20 && unsigned < 0x7f && unsigned != '%') {
                encoded.append((char) unsigned);
            } else {
                encoded.append('%').append(Character.toUpperCase(Character.forDigit(unsigned >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(unsigned & 0xf, 16)));
            }
        }
        return encoded.toString();
    }

    private HttpResponse<String> send(HttpRequest request) throws ToolFailure {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (HttpConnectTimeoutException e) {
            throw new TransientFailure("connect_timeout", name + ": no connection within the connect timeout, nothing was sent", null, e);
        } catch (ConnectException e) {
            throw new DependencyDownFailure("connection_refused", name + ": connection refused by " + endpoint.getAuthority(), null, e);
        } catch (HttpTimeoutException e) {
            throw new UnknownSideEffectFailure("timeout_after_send", name + ": no answer within "
                    + requestTimeout.toMillis() + " ms after the request was sent", null, e);
        } catch (IOException e) {
            throw new UnknownSideEffectFailure("io_error", name + ": the exchange broke off: " + e, null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnknownSideEffectFailure("interrupted", name + ": interrupted while waiting for the answer", null, e);
        }
    }

    private String classify(HttpResponse<String> response) throws ToolFailure {
        int status = response.statusCode();
        String body = response.body() == null ? "" : response.body();
        if (status >= 200 && status < 300) {
            return body.isBlank() ? "{}" : body;
        }
        String code = "http_" + status;
        String message = name + " answered " + status + ": " + abbreviate(body);
        Duration retryAfter = RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null), clock.instant())
                .orElse(null);
        if (status == 429) {
            throw new RateLimitedFailure(code, message, retryAfter);
        }
        if (status == 503) {
            throw new DependencyDownFailure(code, message, retryAfter, null);
        }
        if (status >= 500 || status == 408) {
            throw new TransientFailure(code, message, retryAfter, null);
        }
        if (status == 401 || status == 403) {
            throw new PermissionFailure(code, message);
        }
        if (status >= 400) {
            throw new InvalidInputFailure(code, message);
        }
        throw new TransientFailure(code, message, retryAfter, null);
    }

    @Override
    public Reconciliation reconcile(String idempotencyKey) {
        if (lookupEndpoint == null) {
            return Tool.super.reconcile(idempotencyKey);
        }
        LookupExchange exchange = lookUp(idempotencyKey);
        if (exchange.response() == null) {
            return Reconciliation.unknown(exchange.evidence());
        }
        HttpResponse<String> response = exchange.response();
        if (response.statusCode() == 404) {
            return Reconciliation.notApplied(exchange.evidence());
        }
        if (response.statusCode() != 200) {
            return Reconciliation.unknown(exchange.evidence());
        }
        try {
            JsonNode answer = JSON.readTree(response.body());
            if (answer.path("applied").asBoolean(false)) {
                JsonNode result = answer.path("result");
                return Reconciliation.applied(result.isMissingNode() ? "{}" : JSON.writeValueAsString(result),
                        exchange.evidence());
            }
            return Reconciliation.notApplied(exchange.evidence());
        } catch (JsonProcessingException e) {
            return Reconciliation.unknown(exchange.evidence() + " (not JSON)");
        }
    }

    /** Asks the same look-up endpoint; its answer counts when it carries {@code "effects": N}. */
    @Override
    public EffectCount countEffects(String idempotencyKey) {
        if (lookupEndpoint == null) {
            return Tool.super.countEffects(idempotencyKey);
        }
        LookupExchange exchange = lookUp(idempotencyKey);
        return exchange.response() == null ? EffectCount.notCountable(exchange.evidence())
                : EffectCount.fromLookupAnswer(exchange.response().statusCode(), exchange.response().body(),
                exchange.evidence());
    }

    /** {@code GET lookupEndpoint + key}: the answer with what was said, or no answer and why. */
    private LookupExchange lookUp(String idempotencyKey) {
        URI uri = URI.create(lookupEndpoint + URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8));
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).timeout(requestTimeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return new LookupExchange(response, "GET " + uri + " -> " + response.statusCode() + " "
                    + abbreviate(response.body()));
        } catch (IOException e) {
            return new LookupExchange(null, "look-up " + uri + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new LookupExchange(null, "look-up " + uri + " was interrupted");
        }
    }

    private record LookupExchange(HttpResponse<String> response, String evidence) {
    }

    private static String abbreviate(String text) {
        if (text == null) {
            return "";
        }
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= MAX_ERROR_BODY ? oneLine : oneLine.substring(0, MAX_ERROR_BODY) + "...";
    }

    /** Configures an {@link HttpTool}. */
    public static final class Builder {
        private final String name;
        private final String schemaVersion;
        private final URI endpoint;
        private URI lookupEndpoint;
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration connectTimeout = Duration.ofSeconds(2);
        private HttpClient client;
        private Clock clock = Clock.systemUTC();

        private Builder(String name, String schemaVersion, URI endpoint) {
            this.name = Objects.requireNonNull(name, "name");
            this.schemaVersion = Objects.requireNonNull(schemaVersion, "schemaVersion");
            this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        }

        /** Where effects are looked up: the idempotency key is appended to this URI. Without it nothing reconciles. */
        public Builder lookupEndpoint(URI lookupEndpoint) {
            this.lookupEndpoint = lookupEndpoint;
            return this;
        }

        /** How long to wait for an answer once connected (default 10 s); past it the side effect is unknown. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        /** How long to wait for a connection (default 2 s); past it nothing was sent and the failure is transient. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** Uses this client instead of building one (its own connect timeout then applies). */
        public Builder httpClient(HttpClient client) {
            this.client = client;
            return this;
        }

        /** The clock HTTP-date Retry-After values are measured against. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public HttpTool build() {
            return new HttpTool(this);
        }
    }
}
