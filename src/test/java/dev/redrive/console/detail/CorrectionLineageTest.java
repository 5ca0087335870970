package dev.redrive.console.detail;

import dev.redrive.console.ui.Truncations;
import dev.redrive.identity.OperationId;
import dev.redrive.report.IncidentReport;
import dev.redrive.report.RenderedReports;
import dev.redrive.report.ReportFormat;
import dev.redrive.report.ReportService;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestCorrections;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.correction.CorrectionResult;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import javafx.scene.control.Hyperlink;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A corrected operation and its correction, linked both ways: the detail pane shows each end of the link and one click
 * goes to the other; every report format states the link in its summary at the top.
 */
@ExtendWith(ApplicationExtension.class)
class CorrectionLineageTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final OperationId ORIGINAL = new OperationId("run-lineage", "charge", 0);
    private static final OperationId CORRECTION = new OperationId("run-lineage", "charge", 1);

    private static DemoChargeWorker worker;
    @RegisterExtension
    final DetailPane pane = new DetailPane(ns);

    @BeforeAll
    static void correctADeadLetter() {
        worker = new DemoChargeWorker(ns, "lineage-1", Duration.ofMinutes(5));
        worker.client().dispatch(worker.client().newDispatch(ORIGINAL, "demo.charge", "1",
                "{\"amount\":\"12.50 EUR\"}", "trace-lineage", "corr-lineage", null));
        await().atMost(WAIT).until(() -> "DEAD_LETTERED".equals(worker.status(ORIGINAL)));
        CorrectionResult corrected = TestCorrections.in(ns, ns.database()).correct(DecisionTarget.operation(ORIGINAL.value()), "{\"amount\":12.5}", "alice", "amount sent as text");
        assertThat(corrected.outcome()).as(corrected.message()).isEqualTo(DecisionOutcome.DONE);
        await().atMost(WAIT).until(() -> "SUCCEEDED".equals(worker.status(CORRECTION)));
    }

    @AfterAll
    static void stopWorker() {
        worker.close();
    }

    @Start
    void start(Stage stage) {
        pane.show(stage);
    }


    private static void awaitShown(OperationDetailViewModel model, OperationId id) {
        await().atMost(WAIT).until(() -> id.value().equals(model.operationIdProperty().get()));
    }

    private static Hyperlink link(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Hyperlink.class);
    }

    @Test
    void theSupersededOperation_linksToItsCorrection_andTheCorrectionBackToIt(FxRobot robot) throws Exception {
        robot.interact(() -> pane.model().showOperation(ORIGINAL.value()));
        awaitShown(pane.model(), ORIGINAL);
        robot.interact(() -> { });

        assertThat(link(robot, "#detailCorrectedBy").getText()).contains("corrected by " + CORRECTION.value());
        assertThat(link(robot, "#detailCorrects").isVisible()).isFalse();
        assertThat(robot.lookup("#detailDecision").queryLabeled().getText()).startsWith("SUPERSEDED by alice");
        for (double width : new double[]{DetailPane.DEFAULT_WIDTH, DetailPane.NARROW_WIDTH}) {
            robot.interact(() -> pane.root().getScene().getWindow().setWidth(width));
            robot.interact(() -> { });
            assertThat(Truncations.under(pane.root())).as("at %s px", width).isEmpty();
        }

        robot.clickOn(link(robot, "#detailCorrectedBy"));
        awaitShown(pane.model(), CORRECTION);
        robot.interact(() -> { });

        assertThat(link(robot, "#detailCorrects").getText()).contains("Corrects " + ORIGINAL.value());
        assertThat(link(robot, "#detailCorrectedBy").isVisible()).isFalse();
        assertThat(robot.lookup("#detailStatus").queryLabeled().getText()).startsWith("SUCCEEDED");
        assertThat(robot.lookup("#detailLastError").query().isVisible()).as("an empty error box").isFalse();

        robot.clickOn(link(robot, "#detailCorrects"));
        awaitShown(pane.model(), ORIGINAL);
        assertThat(robot.lookup("#detailCorrectedBy").query().isVisible()).isTrue();
        assertThat(robot.lookup("#detailLastError").query().isVisible()).isTrue();
    }

    @Test
    void everyReportFormat_statesTheLineageInItsSummary() throws Exception {
        ReportService reports = new ReportService(ns.database(), Clock.systemUTC(), Redactor.defaults());
        IncidentReport original = reports.operation(ORIGINAL.value());
        IncidentReport correction = reports.operation(CORRECTION.value());

        for (ReportFormat format : new ReportFormat[]{ReportFormat.HTML, ReportFormat.MARKDOWN}) {
            String text = RenderedReports.text(reports, original, format);
            assertThat(summaryOf(text)).as(format.name()).contains("corrected by").contains(CORRECTION.value());
            assertThat(summaryOf(RenderedReports.text(reports, correction, format))).as(format.name()).contains("corrects")
                    .contains(ORIGINAL.value());
        }
        assertThat(summaryOf(RenderedReports.pdfFirstPage(reports, original)))
                .contains("corrected by: " + CORRECTION.value());
    }

    /** The summary: what a report states before its first section, "About this report". */
    private static String summaryOf(String text) {
        return text.substring(0, text.indexOf("About this report"));
    }
}
