package dev.redrive.worker;

import com.sun.net.httpserver.HttpServer;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.telemetry.AttemptSpans;
import dev.redrive.worker.tool.HttpTool;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * A trace started by the caller continues through every attempt to the tool's HTTP request: the dispatch's
 * traceparent is the parent of each {@code redrive.attempt} span (the retry's too), the tool call is its child, and
 * the tool receives the tool call's span as its own traceparent.
 */
class TraceContextTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exported)).build()).build();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();
    private HttpServer service;

    /** A service that fails its first call with a 500 and records the traceparent of every request. */
    @BeforeEach
    void startService() throws IOException {
        service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        service.createContext("/charge", exchange -> {
            received.add(exchange.getRequestHeaders().getFirst("traceparent"));
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(calls.incrementAndGet() == 1 ? 500 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        service.start();
    }

    @AfterEach
    void stopService() {
        service.stop(0);
        sdk.close();
    }

    @Test
    void theCallersTrace_continuesThroughEveryAttemptToTheToolsRequest() throws Exception {
        HttpTool tool = HttpTool.builder("test.traced", "1",
                URI.create("http://127.0.0.1:" + service.getAddress().getPort() + "/charge")).build();
        Worker worker = Worker.builder(ns.database(), ns.redis()).tool(tool).openTelemetry(sdk)
                .claimInterval(Duration.ofMillis(200))
                .retryPolicy(BackoffRetryPolicy.builder().baseDelay(Duration.ofMillis(50)).build()).build().start();
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        OperationId id = new OperationId("traced", "charge", 0);
        client.dispatch(client.newDispatch(id, "test.traced", "1", "{\"amount\":1}", null, null, null)
                .withTraceparent("00-" + TRACE_ID + "-" + CALLER_SPAN + "-01"));

        await().atMost(Duration.ofSeconds(20)).until(() -> exported.getFinishedSpanItems().stream()
                .filter(span -> span.getName().equals(AttemptSpans.ATTEMPT)).count() == 2);
        worker.shutdown().get(15, TimeUnit.SECONDS);

        List<SpanData> spans = exported.getFinishedSpanItems();
        List<SpanData> attempts = spans.stream().filter(span -> span.getName().equals(AttemptSpans.ATTEMPT)).toList();
        assertThat(attempts).allSatisfy(attempt -> {
            assertThat(attempt.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(attempt.getParentSpanId()).as("the caller's span, for the retry too").isEqualTo(CALLER_SPAN);
            assertThat(attempt.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(attempt.getAttributes().get(AttributeKey.stringKey("redrive.operation_id"))).isEqualTo(id.value());
            assertThat(attempt.getAttributes().get(AttributeKey.stringKey("redrive.idempotency_key")))
                    .isEqualTo(id.idempotencyKey());
        });
        assertThat(attempts).extracting(attempt -> attempt.getAttributes().get(AttributeKey.longKey("redrive.attempt")))
                .containsExactlyInAnyOrder(1L, 2L);
        assertThat(attempts).extracting(attempt -> attempt.getAttributes().get(AttributeKey.stringKey("redrive.outcome")))
                .containsExactlyInAnyOrder("RETRY_SCHEDULED", "SUCCEEDED");
        assertThat(attempts).extracting(attempt -> attempt.getAttributes().get(AttributeKey.stringKey("redrive.class")))
                .containsExactlyInAnyOrder("TRANSIENT", "none");

        List<SpanData> toolCalls = spans.stream().filter(span -> span.getName().equals(AttemptSpans.TOOL_CALL)).toList();
        assertThat(toolCalls).hasSize(2).allSatisfy(call -> {
            assertThat(call.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(attempts).extracting(SpanData::getSpanId).contains(call.getParentSpanId());
            assertThat(call.getKind()).isEqualTo(SpanKind.CLIENT);
        });
        assertThat(received).containsExactlyInAnyOrderElementsOf(toolCalls.stream()
                .map(call -> "00-" + TRACE_ID + "-" + call.getSpanId() + "-01").toList());

        List<AttemptRecord> recorded = new OperationDetailsLoader(ns.database()).require(id.value()).attempts();
        assertThat(recorded).as("each attempt row names its own span, for 'open in tracer'")
                .extracting(AttemptRecord::attempt, AttemptRecord::traceId, AttemptRecord::spanId)
                .containsExactlyInAnyOrderElementsOf(attempts.stream().map(span -> tuple(
                        span.getAttributes().get(AttributeKey.longKey("redrive.attempt")).intValue(), TRACE_ID,
                        span.getSpanId())).toList());
    }

    @Test
    void withoutAnSdk_noSpanIsRecordedWithTheAttempt_butTheCallersContextStillReachesTheTool() throws Exception {
        HttpTool tool = HttpTool.builder("test.untraced", "1",
                URI.create("http://127.0.0.1:" + service.getAddress().getPort() + "/charge")).build();
        Worker worker = Worker.builder(ns.database(), ns.redis()).tool(tool).openTelemetry(OpenTelemetry.noop())
                .claimInterval(Duration.ofMillis(200))
                .retryPolicy(BackoffRetryPolicy.builder().baseDelay(Duration.ofMillis(50)).build()).build().start();
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        OperationId id = new OperationId("untraced", "charge", 0);
        String callers = "00-" + TRACE_ID + "-" + CALLER_SPAN + "-01";
        client.dispatch(client.newDispatch(id, "test.untraced", "1", "{\"amount\":1}", null, null, null)
                .withTraceparent(callers));
        OperationDetailsLoader loader = new OperationDetailsLoader(ns.database());
        await().atMost(Duration.ofSeconds(20)).until(() -> loader.require(id.value()).operation().status().name()
                .equals("SUCCEEDED"));
        worker.shutdown().get(15, TimeUnit.SECONDS);

        assertThat(received).containsOnly(callers);
        assertThat(loader.require(id.value()).attempts()).hasSize(2).allSatisfy(attempt -> {
            assertThat(attempt.hasSpan()).as("the no-op API's span is the caller's, not the attempt's").isFalse();
            assertThat(attempt.traceId()).isNull();
        });
    }

    @Test
    void aDispatchBuiltInsideTheCallersSpan_carriesItAsTraceparent() {
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        Span caller = sdk.getTracer("test").spanBuilder("caller").startSpan();
        DispatchEnvelope envelope;
        try (Scope ignored = caller.makeCurrent()) {
            envelope = client.newDispatch(new OperationId("traced", "inside", 0), "test.traced", "1", "{}", null, null,
                    null);
        } finally {
            caller.end();
        }
        assertThat(envelope.traceparent()).isEqualTo("00-" + caller.getSpanContext().getTraceId() + "-"
                + caller.getSpanContext().getSpanId() + "-" + caller.getSpanContext().getTraceFlags().asHex());
        assertThat(client.newDispatch(new OperationId("traced", "outside", 0), "test.traced", "1", "{}", null, null,
                null).traceparent()).as("no span, no traceparent").isNull();
    }
}
