package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestTool;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.telemetry.AttemptSpans;
import dev.redrive.worker.tool.InvalidInputFailure;
import dev.redrive.worker.tool.ToolCall;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The span a worker with an OpenTelemetry SDK recorded for an attempt is in {@code op show}, its JSON and the report;
 * so is the trace of an operator who redrives from inside a span.
 */
class AttemptSpanCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    /** Refuses every payload: one attempt, straight to the DLQ. */
    private static final class RefusingTool extends TestTool {
        RefusingTool() {
            super("test.refusing");
        }

        @Override
        public String execute(ToolCall call) throws InvalidInputFailure {
            throw new InvalidInputFailure("no_amount", "a charge needs an amount");
        }
    }

    @Test
    void aTracedAttempt_showsItsSpanInOpShowItsJsonAndTheReport(@TempDir Path folder) throws Exception {
        InMemorySpanExporter exported = InMemorySpanExporter.create();
        OperationId id = new OperationId("spans", "refused", 0);
        SpanData attempt;
        Span operatorsSpan;
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exported)).build()).build()) {
            Worker worker = Worker.builder(ns.database(), ns.redis()).tool(new RefusingTool()).openTelemetry(sdk)
                    .claimInterval(Duration.ofMillis(200)).build().start();
            WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
            client.dispatch(client.newDispatch(id, "test.refusing", "1", "{}", null, null, null));
            await().atMost(Duration.ofSeconds(20)).until(() -> ns.database().jdbc().queryOne(
                    "SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), id.value())
                    .orElse("").equals("DEAD_LETTERED"));
            worker.shutdown().get(15, TimeUnit.SECONDS);
            operatorsSpan = sdk.getTracer("operator-console").spanBuilder("operator").startSpan();
            // Read before the SDK closes: closing its exporter forgets what it collected.
            attempt = exported.getFinishedSpanItems().stream()
                    .filter(span -> span.getName().equals(AttemptSpans.ATTEMPT)).findFirst().orElseThrow();
        }
        CliRun redrive;
        try (Scope ignored = operatorsSpan.makeCurrent()) {
            redrive = CliRun.in(ns, "redrive", id.value(), "--reason", "amount added upstream", "--operator", "ana");
        } finally {
            operatorsSpan.end();
        }
        assertThat(redrive.exit()).as(redrive.err()).isZero();
        String operatorsTrace = "00-" + operatorsSpan.getSpanContext().getTraceId() + "-"
                + operatorsSpan.getSpanContext().getSpanId() + "-" + operatorsSpan.getSpanContext().getTraceFlags().asHex();

        CliRun text = CliRun.in(ns, "op", "show", id.value());
        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("span " + attempt.getSpanId() + " in trace " + attempt.getTraceId());

        CliRun json = CliRun.in(ns, "op", "show", id.value(), "--json");
        JsonNode first = TriageJson.parse(json.out()).path("attempts").get(0);
        assertThat(first.path("trace_id").asText()).isEqualTo(attempt.getTraceId());
        assertThat(first.path("span_id").asText()).isEqualTo(attempt.getSpanId());
        assertThat(first.path("outcome").asText()).as("the fields that were there stay").isEqualTo("DEAD_LETTERED");

        assertThat(TriageJson.parse(json.out()).path("redrive_commands").get(0).path("operator_traceparent").asText())
                .isEqualTo(operatorsTrace);
        assertThat(text.out()).contains("issued in the operator's trace " + operatorsTrace);

        Path report = folder.resolve("report.md");
        assertThat(CliRun.in(ns, "report", id.value(), "--format", "md", "--out", report.toString()).exit()).isZero();
        assertThat(Files.readString(report)).contains("attempt 1 span").contains(attempt.getSpanId());
    }
}
