package dev.redrive.console;

import dev.redrive.cli.CliRun;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.detail.OperationDetailView;
import dev.redrive.console.detail.OperationDetailViewModel;
import dev.redrive.console.detail.TracerLinks;
import dev.redrive.console.dlq.DlqTableClicks;
import dev.redrive.console.ui.Theme;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.redaction.Redactor;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Duration;

import static dev.redrive.console.ScreensFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dispatch that carried only a W3C {@code traceparent}, as OpenTelemetry producers send it: the operator pastes the
 * trace id the producer's tracer shows into the filter and finds its entry; the detail shows the traceparent, and
 * "Open in tracer" opens the trace by the id in it.
 */
@ExtendWith(ApplicationExtension.class)
class TraceparentConsoleTest {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";
    private static final String OPERATION = "traced-order:charge:0";

    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-traceparent");

    private Stage stage;

    @BeforeAll
    static void deadLetterATracedDispatchBesideAPlainOne() {
        try (DemoChargeWorker worker = new DemoChargeWorker(ns, "traceparent-console", Duration.ofMinutes(5))) {
            for (String[] dispatch : new String[][]{{"traced-order", "--traceparent", TRACEPARENT},
                    {"plain-order", "--trace-id", "plain-trace"}}) {
                CliRun run = CliRun.in(ns, "dispatch", "--run", dispatch[0], "--node", "charge", "--tool", "demo.charge",
                        "--payload", "{\"amount\":5,\"fault\":\"invalid\"}", dispatch[1], dispatch[2]);
                assertThat(run.exit()).as(run.err()).isZero();
            }
            await().atMost(WAIT).until(() -> ns.database().jdbc().queryLong("SELECT count(*) FROM dlq_entries") == 2);
        }
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @Test
    void theW3cTraceId_findsTheEntry_andTheDetailShowsItsTraceparent(FxRobot robot) {
        robot.interact(() -> onStage.show(stage, new RecordingDesktop()));
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).until(() -> table.getItems().size() == 2);
        robot.clickOn("#filterTrace").write(TRACE_ID);
        robot.clickOn("#applyFilter");
        await().atMost(WAIT).until(() -> table.getItems().size() == 1);
        assertThat(table.getItems().get(0).operationId()).isEqualTo(OPERATION);

        DlqTableClicks.clickFirst(robot);
        Label traceparent = robot.lookup("#detailTraceparent").queryAs(Label.class);
        await().atMost(WAIT).until(() -> TRACEPARENT.equals(traceparent.getText()));
        assertThat(robot.lookup("#copyTraceparent").queryButton().isVisible()).isTrue();
    }

    @Test
    void openInTracer_opensTheTraceOfTheTraceparent(FxRobot robot) {
        RecordingDesktop desktop = new RecordingDesktop();
        UiExecutor executor = UiExecutor.forFx(2);
        try {
            OperationDetailViewModel model = new OperationDetailViewModel(
                    new OperationDetailsLoader(ns.database())::require, new EntryDetailsLoader(ns.database())::require,
                    executor, Redactor.defaults(), new TracerLinks("https://tracer.example/trace/{trace_id}", ""));
            robot.interact(() -> {
                Theme.apply(false);
                Scene scene = new Scene(OperationDetailView.load(model, desktop).root(), 900, 900);
                scene.getStylesheets().add(Theme.stylesheet());
                stage.setScene(scene);
                stage.show();
                model.show(OPERATION, 0);
            });
            Label traceparent = robot.lookup("#detailTraceparent").queryAs(Label.class);
            await().atMost(WAIT).until(() -> TRACEPARENT.equals(traceparent.getText()));

            robot.clickOn("#openInTracer");

            assertThat(desktop.opened()).containsExactly("https://tracer.example/trace/" + TRACE_ID);
        } finally {
            executor.close();
        }
    }
}
