package dev.redrive.console;

import dev.redrive.console.main.WindowLayout;
import dev.redrive.console.ui.Truncations;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.triage.query.DlqRow;
import javafx.application.Platform;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.time.Clock;
import java.time.Instant;

import static dev.redrive.console.ScreensFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console at the two window sizes operators use, 1600×1000 and 1280×800, with the list taking its default share:
 * no text cut anywhere (labels, headers, the cells of every table), the error visible in the list without scrolling
 * sideways.
 */
@ExtendWith(ApplicationExtension.class)
class ConsoleLayoutTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-layout");

    private Stage stage;

    /** The newest entry, at the top of the list: an id longer than the list's last column at 1280 px. */
    private static String longId;

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(120, "layout");
        // Entered now, after every generated entry (the fixture's default time is older than some of them).
        longId = new DeadLetterFixture(ns.database()).deadLettered("fulfilment-20261201-carrier-gateway", "ship-10221")
                .enteredAt(Instant.now()).create().operationId();
    }

    @AfterEach
    void close() {
        if (stage != null) {
            Platform.runLater(stage::close);
        }
    }

    @ParameterizedTest(name = "{0}×{1}")
    @CsvSource({"1600, 1000", "1280, 800"})
    void nothingIsCut_andTheListShowsTheError_inEntriesDetailAndGroups(double width, double height, FxRobot robot)
            throws Exception {
        robot.interact(() -> {
            stage = new Stage();
            onStage.show(stage, new RecordingDesktop(), width, height, WindowLayout.DEFAULT.browserDivider());
        });
        Node root = stage.getScene().getRoot();
        TableView<DlqRow> table = robot.from(root).lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).until(() -> !table.getItems().isEmpty());
        robot.interact(() -> table.getSelectionModel().clearAndSelect(0));
        await().atMost(WAIT).until(() -> robot.from(root).lookup("#attemptList .attempt-block").tryQuery().isPresent());
        robot.interact(() -> { });

        assertThat(Truncations.under(stage.getScene().getRoot())).as("entries and detail").isEmpty();
        assertThat(horizontalScrollBarShows(table)).as("the list scrolls sideways").isFalse();
        assertThat(robot.from(table).lookup(".cell-bottom").queryAllAs(Label.class))
                .as("the error line of every row is on screen").isNotEmpty()
                .allSatisfy(line -> assertThat(line.localToScene(line.getLayoutBounds()).getMaxX())
                        .isLessThanOrEqualTo(table.localToScene(table.getLayoutBounds()).getMaxX()));

        // A loaded machine lays the row's cells out a moment after the items arrive.
        await().atMost(WAIT).until(() -> robot.from(table).lookup(".cell-top")
                .match(label -> longId.equals(((Label) label).getText())).tryQuery().isPresent());
        Label id = robot.from(table).lookup(".cell-top").match(label -> longId.equals(((Label) label).getText()))
                .queryAs(Label.class);
        String drawn = id.getChildrenUnmodifiable().stream().filter(Text.class::isInstance).map(Text.class::cast)
                .map(Text::getText).findFirst().orElseThrow();
        assertThat(drawn).as("a long operation id keeps the end that tells it from its neighbours")
                .endsWith("ship-10221:0").startsWith("fulfilment-");

        robot.interact(() -> ((ToggleButton) root.lookup("#groupedView")).fire());
        TableView<?> groups = robot.from(root).lookup("#groupTable").queryTableView();
        await().atMost(WAIT).until(() -> !groups.getItems().isEmpty());
        robot.interact(() -> { });
        assertThat(Truncations.under(stage.getScene().getRoot())).as("groups").isEmpty();
        assertThat(horizontalScrollBarShows(groups)).as("the groups scroll sideways").isFalse();
        assertThat(root.getScene().getWindow().getWidth()).isEqualTo(width);
    }

    private static boolean horizontalScrollBarShows(TableView<?> table) {
        return table.lookupAll(".scroll-bar").stream().filter(ScrollBar.class::isInstance).map(ScrollBar.class::cast)
                .anyMatch(bar -> bar.getOrientation() == Orientation.HORIZONTAL && bar.isVisible());
    }
}
