package dev.redrive.console.detail;

import dev.redrive.console.RecordingDesktop;
import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Theme;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestTool;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.InvalidInputFailure;
import dev.redrive.worker.tool.ToolCall;
import dev.redrive.worker.tool.ToolFailure;
import dev.redrive.worker.tool.TransientFailure;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Labeled;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operation run by a worker with an OpenTelemetry SDK: "Open in tracer" opens the span of its latest attempt, and
 * each attempt's own link opens that attempt's span; without a span template, the trace.
 */
@ExtendWith(ApplicationExtension.class)
class AttemptSpanLinkTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final OperationId OPERATION = new OperationId("traced-console", "charge", 0);
    private static final String TRACE = "https://tracer.example/trace/{trace_id}";
    private static final String SPAN = "https://tracer.example/trace/{trace_id}?uiFind={span_id}";

    private final UiExecutor executor = UiExecutor.forFx(2);
    private final RecordingDesktop desktop = new RecordingDesktop();
    private final OperationDetailsLoader loader = new OperationDetailsLoader(ns.database());
    private Stage stage;

    /** Fails the first call of a key as transient, the second as invalid input: two attempts, then the DLQ. */
    private static final class FailingTwiceTool extends TestTool {
        private final AtomicInteger calls = new AtomicInteger();

        FailingTwiceTool() {
            super("test.traced");
        }

        @Override
        public String execute(ToolCall call) throws ToolFailure {
            if (calls.incrementAndGet() == 1) {
                throw new TransientFailure("busy", "try again");
            }
            throw new InvalidInputFailure("no_amount", "a charge needs an amount");
        }
    }

    @BeforeAll
    static void runWithAnSdk() throws Exception {
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(InMemorySpanExporter.create())).build()).build()) {
            Worker worker = Worker.builder(ns.database(), ns.redis()).tool(new FailingTwiceTool()).openTelemetry(sdk)
                    .claimInterval(Duration.ofMillis(200))
                    .retryPolicy(BackoffRetryPolicy.builder().baseDelay(Duration.ofMillis(50)).build()).build().start();
            WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
            client.dispatch(client.newDispatch(OPERATION, "test.traced", "1", "{}", null, null, null));
            OperationDetailsLoader loader = new OperationDetailsLoader(ns.database());
            await().atMost(Duration.ofSeconds(30)).until(() -> loader.require(OPERATION.value()).operation().status()
                    .name().equals("DEAD_LETTERED"));
            worker.shutdown().get(15, TimeUnit.SECONDS);
        }
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
        Theme.apply(false);
    }

    @AfterEach
    void stop() {
        executor.close();
    }

    private VBox show(FxRobot robot, TracerLinks links) {
        OperationDetailViewModel model = new OperationDetailViewModel(loader::require,
                new EntryDetailsLoader(ns.database())::require, executor, Redactor.defaults(), links);
        robot.interact(() -> {
            ThemedStage.show(stage, OperationDetailView.load(model, desktop).root(), 900, 900);
            model.show(OPERATION.value(), 0);
        });
        VBox list = robot.lookup("#attemptList").queryAs(VBox.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> list.getChildren().size() == 2);
        robot.interact(() -> { });
        return list;
    }

    private static AttemptRecord attemptOf(Node block) {
        return (AttemptRecord) block.getUserData();
    }

    @Test
    void withASpanTemplate_openInTracerOpensTheLatestAttemptsSpan_andEachAttemptItsOwn(FxRobot robot) {
        VBox list = show(robot, new TracerLinks(TRACE, SPAN));
        AttemptRecord first = attemptOf(list.getChildren().get(0));
        AttemptRecord last = attemptOf(list.getChildren().get(1));
        assertThat(List.of(first, last)).allSatisfy(attempt -> assertThat(attempt.hasSpan()).isTrue());

        robot.clickOn("#openInTracer");
        assertThat(desktop.opened()).containsExactly("https://tracer.example/trace/" + last.traceId() + "?uiFind="
                + last.spanId());

        assertThat(list.getChildren().get(0).lookupAll(".label").stream()
                .map(label -> ((Labeled) label).getText()))
                .contains("span " + first.spanId() + " in trace " + first.traceId());
        robot.clickOn(list.getChildren().get(0).lookup(".attempt-span-link"));
        assertThat(desktop.opened()).last().isEqualTo("https://tracer.example/trace/" + first.traceId() + "?uiFind="
                + first.spanId());
    }

    @Test
    void withOnlyATraceTemplate_theLinksOpenTheAttemptsTrace(FxRobot robot) {
        VBox list = show(robot, new TracerLinks(TRACE, ""));
        AttemptRecord last = attemptOf(list.getChildren().get(1));

        robot.clickOn("#openInTracer");
        robot.clickOn(list.getChildren().get(1).lookup(".attempt-span-link"));

        assertThat(desktop.opened()).containsExactly("https://tracer.example/trace/" + last.traceId(),
                "https://tracer.example/trace/" + last.traceId());
    }

    @Test
    void withoutATracerTemplate_theSpanIsShownWithoutALink(FxRobot robot) {
        VBox list = show(robot, TracerLinks.NONE);

        assertThat(robot.lookup("#openInTracer").queryAs(Hyperlink.class).isVisible()).isFalse();
        assertThat(list.lookupAll(".attempt-span")).hasSize(2);
        assertThat(list.lookupAll(".attempt-span-link")).isEmpty();
    }
}
