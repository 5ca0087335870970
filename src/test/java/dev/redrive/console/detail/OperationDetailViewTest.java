package dev.redrive.console.detail;

import dev.redrive.console.ui.Truncations;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.detail.AttemptRecord;
import dev.redrive.bench.generate.DlqGenerator;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The detail pane as wide as it is right of the list, in the default window and at 1280 px. */
@ExtendWith(ApplicationExtension.class)
class OperationDetailViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @RegisterExtension
    final DetailPane pane = new DetailPane(ns);

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(40, "detail-view");
    }

    @Start
    void start(Stage stage) {
        pane.show(stage);
    }

    /** The id, dlq entry id and attempt count of entries with several attempts, oldest first. */
    private static List<String[]> entries() {
        return ns.database().jdbc().query("SELECT operation_id, id, attempt FROM dlq_entries "
                        + "WHERE attempt > 2 AND error_code IS NOT NULL ORDER BY id LIMIT 2",
                row -> new String[]{row.getString(1), row.getString(2), row.getString(3)});
    }

    private VBox showAndWait(FxRobot robot, String[] entry) {
        robot.interact(() -> pane.model().show(entry[0], Long.parseLong(entry[1])));
        VBox list = robot.lookup("#attemptList").queryAs(VBox.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> list.getChildren().size() == Integer.parseInt(entry[2])
                && entry[0].equals(pane.model().operationIdProperty().get()));
        robot.interact(() -> { });
        return list;
    }

    @Test
    void theErrorsPerAttempt_showEveryFieldAndTheWholeError_withNothingCut_atBothWidths(FxRobot robot) throws Exception {
        VBox list = showAndWait(robot, entries().get(0));

        try {
            for (double width : new double[]{DetailPane.DEFAULT_WIDTH, DetailPane.NARROW_WIDTH}) {
                robot.interact(() -> pane.root().getScene().getWindow().setWidth(width));
                assertThat(Truncations.under(pane.root())).as("at %s px", width).isEmpty();
            }
        } finally {
            robot.interact(() -> pane.root().getScene().getWindow().sizeToScene());
        }
        for (Node block : list.getChildren()) {
            AttemptRecord attempt = (AttemptRecord) block.getUserData();
            List<String> texts = block.lookupAll(".label").stream().map(label -> ((Label) label).getText()).toList();
            assertThat(texts).contains("#" + attempt.attempt(), attempt.outcome().replace('_', ' '), attempt.errorMessage());
            assertThat(texts).anyMatch(text -> text.contains(attempt.errorCode()));
        }
        AttemptRecord first = (AttemptRecord) list.getChildren().get(0).getUserData();
        Tooltip tooltip = (Tooltip) list.getChildren().get(0).getProperties().values().stream()
                .filter(Tooltip.class::isInstance).findFirst().orElseThrow();
        assertThat(tooltip.getText()).contains("attempt " + first.attempt() + " · " + first.outcome(),
                "consumer " + first.consumer(), first.errorCode());
    }

    @Test
    void selectingAnotherOperation_scrollsTheDetailBackToTheTop(FxRobot robot) {
        List<String[]> entries = entries();
        showAndWait(robot, entries.get(0));
        ScrollPane content = robot.lookup(".operation-detail > .scroll-pane").queryAs(ScrollPane.class);
        robot.interact(() -> content.setVvalue(content.getVmax()));

        showAndWait(robot, entries.get(1));

        assertThat(content.getVvalue()).isEqualTo(content.getVmin());
    }

    @Test
    void anOperationSentWithoutTraceOrCorrelationId_saysSo_withNothingToCopyOrOpen(FxRobot robot) {
        String[] traced = entries().get(0);
        String[] untraced = entries().get(1);
        ns.database().jdbc().update("UPDATE operations SET trace_id = NULL, correlation_id = NULL WHERE operation_id = ?",
                untraced[0]);
        ns.database().jdbc().update("UPDATE dlq_entries SET trace_id = NULL, correlation_id = NULL WHERE id = ?",
                Long.parseLong(untraced[1]));

        showAndWait(robot, traced);
        assertThat(robot.lookup("#copyTraceId").queryButton().isVisible()).isTrue();
        assertThat(robot.lookup("#copyCorrelationId").queryButton().isVisible()).isTrue();

        showAndWait(robot, untraced);
        assertThat(robot.lookup("#detailTraceId").queryLabeled().getText()).isEqualTo(OperationDetailView.NO_ID);
        for (String control : new String[]{"#copyTraceId", "#copyCorrelationId", "#openInTracer"}) {
            Node node = robot.lookup(control).query();
            assertThat(node.isVisible() || node.isManaged()).as(control).isFalse();
        }
    }
}
