package dev.redrive.console.dlq;

import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Theme;
import dev.redrive.health.DlqEventTail;
import dev.redrive.health.DlqFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.JdbcDlqQueries;
import javafx.scene.Node;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * New DLQ entries in the oldest-first list: where the operator finds them, when the "N new" button goes, and the notice
 * a new kind of failure raises.
 */
@ExtendWith(ApplicationExtension.class)
class DlqBrowserViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final UiExecutor executor = UiExecutor.forFx(2);
    private DlqBrowserViewModel model;

    @Start
    void start(Stage stage) {
        Theme.apply(false);
        DlqEventTail tail = new DlqEventTail(ns.redis());
        model = new DlqBrowserViewModel(new JdbcDlqQueries(ns.database()), tail::poll, executor, Clock.systemUTC());
        DlqBrowserView view = DlqBrowserView.load(model);
        ThemedStage.show(stage, view.root(), 1100, 600);
    }

    @AfterEach
    void stop() {
        executor.close();
    }

    /** {@code count} entries of {@code run}, the newest at {@code newest}; their ids oldest first. */
    private static List<Long> insert(String run, String fingerprint, int count, Instant newest) {
        DlqFixture.insert(ns.database(), run, count, "PERMISSION", "crm.sync", fingerprint, "NONE", "OPEN", newest);
        return ns.database().jdbc().query("SELECT id FROM dlq_entries WHERE error_fingerprint = ? ORDER BY entered_at, id",
                row -> row.getLong(1), fingerprint);
    }

    /** Dead-letters {@code count} more entries of {@code run} and announces them on the event stream, as a worker does. */
    private static List<Long> arrive(String run, int count) {
        List<Long> ids = insert(run, "fp-" + run + "-new", count, Instant.now());
        for (long id : ids) {
            ns.redis().sync().xadd(ns.redis().keys().dlq(), Map.of("dlq_entry_id", String.valueOf(id),
                    "operation_id", run + ":node-" + id + ":0", "error_class", "PERMISSION", "tool", "crm.sync",
                    "fingerprint", "fp-" + run + "-new", "entered_at", Instant.now().toString()));
        }
        return ids;
    }

    /**
     * {@code count} entries of {@code run} dead-lettered a minute ago; the operator filters on the run and clicks the
     * Entered header for oldest first; the live tail starts.
     */
    private TableView<DlqRow> oldestFirstOver(FxRobot robot, String run, int count) {
        List<Long> old = insert(run, "fp-" + run, count, Instant.now().minusSeconds(60));
        robot.clickOn("#filterRun").write(run).type(KeyCode.ENTER);
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(WAIT).until(() -> !table.getItems().isEmpty() && table.getItems().get(0).runId().equals(run));
        robot.clickOn("Entered");
        await().atMost(WAIT).until(() -> !model.loadingProperty().get() && table.getItems().get(0).id() == old.get(0));
        robot.interact(model::pollLive);
        return table;
    }

    /** {@code count} more entries of {@code run} arrive and the console polls the live tail; their ids. */
    private List<Long> arriveLive(FxRobot robot, String run, int count) {
        List<Long> arrived = arrive(run, count);
        robot.interact(model::pollLive);
        return arrived;
    }

    private static VirtualFlow<?> flow(TableView<DlqRow> table) {
        return (VirtualFlow<?>) table.lookup(".virtual-flow");
    }

    /** Whether every entry is on a row the table shows whole (read on the FX thread). */
    private static boolean shown(TableView<DlqRow> table, List<Long> ids) throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> ids.stream().allMatch(id -> {
            int index = indexOf(table, id);
            VirtualFlow<?> flow = flow(table);
            return index >= 0 && flow.getFirstVisibleCell() != null
                    && index >= flow.getFirstVisibleCell().getIndex() && index <= flow.getLastVisibleCell().getIndex()
                    && wholeInView(flow, index);
        })).get(5, TimeUnit.SECONDS);
    }

    private static boolean wholeInView(VirtualFlow<?> flow, int index) {
        Node cell = flow.getCell(index);
        double top = flow.sceneToLocal(cell.localToScene(0, 0)).getY();
        return top >= 0 && top + cell.getBoundsInLocal().getHeight() <= flow.getHeight() + 0.5;
    }

    private static int indexOf(TableView<DlqRow> table, long id) {
        for (int i = 0; i < table.getItems().size(); i++) {
            if (table.getItems().get(i).id() == id) {
                return i;
            }
        }
        return -1;
    }

    private static boolean newButtonShows(FxRobot robot, String text) {
        return robot.lookup("#newIndicator").tryQuery().filter(Node::isVisible)
                .map(node -> ((javafx.scene.control.Labeled) node).getText().equals(text)).orElse(false);
    }

    @Test
    void oldestFirst_showNewScrollsToTheNewEntriesAtTheEndOfTheList(FxRobot robot) {
        TableView<DlqRow> table = oldestFirstOver(robot, "run-show", 150);
        List<Long> arrived = arriveLive(robot, "run-show", 3);
        await().atMost(WAIT).until(() -> newButtonShows(robot, "3 new"));

        robot.clickOn("#newIndicator");

        await().atMost(WAIT).until(() -> !model.loadingProperty().get() && indexOf(table, arrived.get(2)) >= 0);
        await().atMost(WAIT).until(() -> shown(table, arrived));
        assertThat(table.getItems().get(table.getItems().size() - 1).id()).isEqualTo(arrived.get(2));
        assertThat(robot.lookup("#newIndicator").query().isVisible()).isFalse();
    }

    @Test
    void oldestFirst_scrollingDownToTheNewEntriesClearsTheNewButton(FxRobot robot) {
        TableView<DlqRow> table = oldestFirstOver(robot, "run-scroll", 60);
        List<Long> arrived = arriveLive(robot, "run-scroll", 2);
        await().atMost(WAIT).until(() -> newButtonShows(robot, "2 new"));

        robot.clickOn(robot.lookup("#dlqTable .table-row-cell").nth(0).queryAs(Node.class));
        robot.type(KeyCode.END);
        await().atMost(WAIT).until(() -> !model.loadingProperty().get() && table.getItems().size() == 62);
        robot.type(KeyCode.END);

        await().atMost(WAIT).until(() -> shown(table, arrived));
        await().atMost(WAIT).until(() -> !robot.lookup("#newIndicator").query().isVisible());
        assertThat(model.newCountProperty().get()).isZero();
    }

    @Test
    void aNewFailureGroup_raisesOneDesktopNotice(FxRobot robot) {
        oldestFirstOver(robot, "run-notice", 5);

        arriveLive(robot, "run-notice", 2);

        String told = "2 entries of crm.sync failing PERMISSION, fingerprint fp-run-notice-new";
        await().atMost(WAIT).until(() -> robot.lookup((Node node) -> node instanceof javafx.scene.control.Labeled label
                && told.equals(label.getText())).tryQuery().isPresent());
    }
}
