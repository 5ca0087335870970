package dev.redrive.console.timeline;

import dev.redrive.console.ThemedStage;
import dev.redrive.console.ui.Theme;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The timeline as an operator reads it: attempts seconds apart, then redrives long after, all at once. */
@ExtendWith(ApplicationExtension.class)
class AttemptTimelineTest {
    private static final Instant T0 = Instant.parse("2026-11-30T22:31:04.118Z");

    private AttemptTimeline timeline;
    private StackPane host;

    @Start
    void start(Stage stage) {
        Theme.apply(false);
        timeline = new AttemptTimeline();
        host = new StackPane(timeline);
        ThemedStage.show(stage, host, 560, 140);
    }

    /** Four rate-limited attempts within 5 s, the DLQ, a redrive 20 min later that fails, one an hour later that works. */
    private static TimelineData spreadOverAnHour() {
        List<TimelineAttempt> attempts = new ArrayList<>();
        Instant start = T0;
        for (int attempt = 1; attempt <= 4; attempt++) {
            Instant end = start.plusMillis(250);
            boolean last = attempt == 4;
            attempts.add(new TimelineAttempt(attempt, start, end, last ? "DEAD_LETTERED" : "RETRY_SCHEDULED", "RATE_LIMITED",
                    "429", Duration.ofSeconds(1), last ? null : end.plusSeconds(1)));
            start = end.plusSeconds(1);
        }
        Instant firstRedrive = T0.plus(Duration.ofMinutes(20));
        attempts.add(new TimelineAttempt(5, firstRedrive, firstRedrive.plusMillis(300), "DEAD_LETTERED", "TRANSIENT",
                "500", null, null));
        Instant secondRedrive = T0.plus(Duration.ofHours(1));
        attempts.add(new TimelineAttempt(6, secondRedrive, secondRedrive.plusMillis(280), "SUCCEEDED", null, null, null, null));
        return new TimelineData(attempts, firstRedrive.plusMillis(300));
    }

    /** Lays the timeline of {@link #spreadOverAnHour} out in a window {@code width} pixels wide. */
    private void showSpreadOverAnHour(FxRobot robot, double width) {
        robot.interact(() -> {
            host.getScene().getWindow().setWidth(width);
            timeline.setData(spreadOverAnHour());
            host.applyCss();
            host.layout();
        });
    }

    @Test
    void theDlqMarker_crossesNoAttemptLabel(FxRobot robot) {
        for (double width : new double[]{480, 560, 900}) {
            showSpreadOverAnHour(robot, width);

            Node marker = timeline.lookup(".timeline-dlq");
            assertThat(timeline.attemptLabels()).as("at %s px", width).allSatisfy(label -> assertThat(
                    label.getBoundsInParent().intersects(marker.getBoundsInParent()))
                    .as("the DLQ line over %s at %s px", ((Label) label).getText(), width).isFalse());
        }
    }

    @Test
    void attemptsSpreadOverAnHour_showEveryLabel_withNoTwoTextsOverlapping(FxRobot robot) {
        for (double width : new double[]{480, 560, 900}) {
            showSpreadOverAnHour(robot, width);

            List<Node> labels = timeline.attemptLabels();
            assertThat(labels).as("at %s px", width).hasSize(6)
                    .allSatisfy(label -> assertThat(label.isVisible()).isTrue());
            assertThat(labels.stream().map(label -> ((Label) label).getText()).toList())
                    .containsExactly("#1", "#2", "#3", "#4", "#5", "#6");
            Bounds area = timeline.getLayoutBounds();
            List<Node> texts = timeline.shownTexts();
            assertThat(texts).as("at %s px", width).allSatisfy(text -> assertThat(area.contains(text.getBoundsInParent()))
                    .as("%s lies inside the timeline at %s px", ((Label) text).getText(), width).isTrue());
            for (int i = 0; i < texts.size(); i++) {
                for (int j = i + 1; j < texts.size(); j++) {
                    assertThat(texts.get(i).getBoundsInParent().intersects(texts.get(j).getBoundsInParent()))
                            .as("'%s' overlaps '%s' at %s px", ((Label) texts.get(i)).getText(),
                                    ((Label) texts.get(j)).getText(), width).isFalse();
                }
            }
            List<Node> bars = timeline.bars();
            for (int i = 1; i < bars.size(); i++) {
                assertThat(bars.get(i).getBoundsInParent().getMinX())
                        .as("bar %d starts after bar %d ends at %s px", i + 1, i, width)
                        .isGreaterThanOrEqualTo(bars.get(i - 1).getBoundsInParent().getMaxX());
            }
            assertThat(timeline.breakMarks()).as("the idle stretches before each redrive are breaks").hasSize(2);
        }
    }

    @Test
    void theAxisStartsAtTheFirstAttempt_withItsClockTime_andNoNegativeOffset(FxRobot robot) {
        robot.interact(() -> {
            timeline.setData(spreadOverAnHour());
            host.applyCss();
            host.layout();
        });

        List<String> texts = timeline.shownTexts().stream().map(node -> ((Label) node).getText()).toList();
        assertThat(texts).noneMatch(text -> text.startsWith("−") || text.startsWith("-"));
        double firstBar = timeline.bars().get(0).getBoundsInParent().getMinX();
        assertThat(firstBar).isLessThan(20);
        assertThat(texts).anyMatch(text -> text.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}"));
    }
}
