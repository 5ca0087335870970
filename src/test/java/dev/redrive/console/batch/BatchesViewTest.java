package dev.redrive.console.batch;

import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.services.TriageServices;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.durable.BatchSelection;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.durable.DurableBatches;
import dev.redrive.triage.redaction.Redactor;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A durable batch from the console, clicked as an operator would: the list shows a batch nobody runs as resumable;
 * Resume works it off here with its pace and time left; Stop ends it between chunks with the rest untouched; Resume
 * again finishes it, every operation redriven exactly once.
 */
@ExtendWith(ApplicationExtension.class)
class BatchesViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int ITEMS = 24;

    private static final String GROUP = "fp-batches-view-group";
    private static final int GROUP_ITEMS = 12;

    private static TriageServices services;
    private static final List<String> operations = new ArrayList<>();
    private UiExecutor executor;
    private Stage stage;

    @BeforeAll
    static void seed() {
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        for (int i = 0; i < ITEMS; i++) {
            operations.add(fixture.deadLettered("run-batches-view", "charge-" + i).create().operationId());
        }
        for (int i = 0; i < GROUP_ITEMS; i++) {
            fixture.deadLettered("run-batches-group", "charge-" + i).fingerprint(GROUP).create();
        }
        services = TriageServices.over(ns.database(), ns.redis(), Clock.systemUTC());
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(() -> robot.listTargetWindows().stream().filter(window -> window instanceof Stage)
                .toList().forEach(window -> ((Stage) window).close()));
        executor.close();
    }

    private static BatchesViewModel model(UiExecutor executor) {
        return new BatchesViewModel(backend(), executor, Clock.systemUTC());
    }

    private static BatchesBackend backend() {
        return BatchesBackend.of(services.batches(), services.batchDecisions(), services.requests(Redactor.defaults()),
                services.batchOutcomes());
    }

    private BatchesView showBadge(FxRobot robot, BatchesViewModel model) {
        BatchesView[] shown = new BatchesView[1];
        robot.interact(() -> {
            stage = new Stage();
            BatchesView view = BatchesView.load(model, new BatchOutcomesViewModel(backend(), executor));
            shown[0] = view;
            ThemedStage.show(stage, new StackPane(view.badge()), 1300, 800);
        });
        return shown[0];
    }

    private static DurableBatch batch(long id) {
        return services.batches().find(id).orElseThrow();
    }

    private static long commands() {
        return ns.database().jdbc().queryLong("""
                SELECT count(*) FROM redrive_commands c JOIN operations o USING (operation_id)
                 WHERE o.run_id = 'run-batches-view'""");
    }

    private static void selectBatch(FxRobot robot, long id) {
        TableView<BatchRow> table = robot.lookup("#batchesTable").queryTableView();
        await().atMost(WAIT).until(() -> table.getItems().stream().anyMatch(row -> row.id() == id));
        // The row showing the batch, wherever the table has put it (rows are reused as the list is read again every
        // second, so a click that landed as the rows were being refilled is made again, as an operator would).
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            if (!selected(table, id)) {
                robot.from(table).lookup(".table-row-cell").queryAll().stream()
                        .filter(node -> node instanceof TableRow<?> tableRow && tableRow.getItem() instanceof BatchRow batch
                                && batch.id() == id)
                        .findFirst().ifPresent(robot::clickOn);
            }
            return selected(table, id);
        });
    }

    private static boolean selected(TableView<BatchRow> table, long id) {
        BatchRow selected = table.getSelectionModel().getSelectedItem();
        return selected != null && selected.id() == id;
    }

    private static String cell(FxRobot robot, long id, java.util.function.Function<BatchRow, String> text) {
        TableView<BatchRow> table = robot.lookup("#batchesTable").queryTableView();
        return table.getItems().stream().filter(row -> row.id() == id).findFirst().map(text).orElse("");
    }

    @Test
    void resumeHereShowsPaceAndTimeLeft_stopLeavesTheRestOpen_andResumingAgainFinishesItOnce(FxRobot robot) {
        DurableBatches batches = services.batches();
        long id = batches.start(DecisionKind.REDRIVE, BatchSelection.operations(operations),
                BatchOptions.of("ana", "ledger is back", 3)).id();
        executor = UiExecutor.forFx(2);
        showBadge(robot, model(executor));

        robot.clickOn("#batchesBadge");
        await().atMost(WAIT).until(() -> robot.lookup("#batchOutcomes").tryQuery().isPresent());
        assertThat(((Label) robot.lookup("#batchOutcomes").queryTableView().getPlaceholder()).getText())
                .as("the items' list before a batch is chosen")
                .isEqualTo("Choose a batch above to see what became of its items.");
        selectBatch(robot, id);
        assertThat(cell(robot, id, BatchRow::state)).isEqualTo("RUNNING, abandoned: resumable");
        robot.clickOn("#resumeBatch");

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(cell(robot, id, BatchRow::state)).isEqualTo("RUNNING here");
            assertThat(cell(robot, id, BatchRow::pace)).matches("\\d+ items/s · .+ left");
        });
        assertThat(robot.lookup("#batchesBadge").queryButton().getText()).isEqualTo("Batches: 1 running");
        selectBatch(robot, id);
        robot.clickOn("#stopBatch");

        await().atMost(WAIT).until(() -> batch(id).state().name().equals("STOPPED"));
        DurableBatch stopped = batch(id);
        assertThat(stopped.done()).isPositive().isLessThan(ITEMS);
        assertThat(commands()).isEqualTo(stopped.done());
        await().atMost(WAIT).untilAsserted(() -> assertThat(cell(robot, id, BatchRow::state)).isEqualTo("STOPPED"));
        assertThat(ns.database().jdbc().queryLong(
                "SELECT count(*) FROM dlq_entries WHERE decision_state = 'OPEN' AND run_id = 'run-batches-view'"))
                .isEqualTo(ITEMS - stopped.done());

        selectBatch(robot, id);
        robot.clickOn("#resumeBatch");

        await().atMost(WAIT).until(() -> batch(id).state().name().equals("DONE"));
        assertThat(commands()).isEqualTo(ITEMS);
        assertThat(ns.database().jdbc().queryLong("""
                SELECT count(DISTINCT c.operation_id) FROM redrive_commands c JOIN operations o USING (operation_id)
                 WHERE o.run_id = 'run-batches-view'""")).isEqualTo(ITEMS);
        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#batchMessage").queryLabeled().getText())
                .startsWith("Batch " + id + " DONE: " + ITEMS + " of " + ITEMS + " items taken"));
    }

    @Test
    void aWholeGroupIsRedrivenAsABatchFromTheConsole_andTheListFollowsItToTheEnd(FxRobot robot) {
        executor = UiExecutor.forFx(2);
        BatchesView view = showBadge(robot, model(executor));

        Platform.runLater(() -> view.startGroup(stage, GROUP, GROUP_ITEMS, "ana"));
        await().atMost(WAIT).until(() -> robot.lookup("#groupBatchReason").tryQuery().isPresent());
        // The dialog stays over its window (its long header wraps), and its labels keep their whole text.
        // (Its position is NaN until the window system has placed it, a moment after it shows on a loaded machine.)
        javafx.stage.Window dialog = robot.lookup("#groupBatchReason").query().getScene().getWindow();
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(dialog.getX()).isGreaterThanOrEqualTo(stage.getX());
            assertThat(dialog.getX() + dialog.getWidth()).isLessThanOrEqualTo(stage.getX() + stage.getWidth());
        });
        javafx.scene.control.Label rateLabel = robot.lookup(".dialog-pane .label")
                .match((javafx.scene.control.Label label) -> "Redrives per second".equals(label.getText())).query();
        assertThat(rateLabel.getWidth()).isGreaterThanOrEqualTo(rateLabel.prefWidth(-1) - 0.5);
        robot.clickOn("#groupBatchReason").write("ledger is back");
        // A pace typed, not stepped, and not confirmed with Enter, is the batch's pace.
        robot.doubleClickOn("#groupBatchRate .text-field").eraseText(3).write("250");
        robot.clickOn(robot.lookup(".dialog-pane .button")
                .match((Button button) -> ("Redrive " + GROUP_ITEMS + " entries").equals(button.getText()))
                .queryButton());

        await().atMost(WAIT).until(() -> ns.database().jdbc().queryLong(
                "SELECT count(*) FROM redrive_batches WHERE state = 'DONE' AND total = ?", GROUP_ITEMS) == 1);
        assertThat(ns.database().jdbc().queryLong("SELECT items_per_second::bigint FROM redrive_batches WHERE total = ?",
                GROUP_ITEMS)).isEqualTo(250);
        assertThat(ns.database().jdbc().queryLong("""
                SELECT count(DISTINCT c.operation_id) FROM redrive_commands c JOIN operations o USING (operation_id)
                 WHERE o.run_id = 'run-batches-group'""")).isEqualTo(GROUP_ITEMS);
        assertThat(ns.database().jdbc().queryLong("""
                SELECT count(*) FROM redrive_commands c JOIN operations o USING (operation_id)
                 WHERE o.run_id = 'run-batches-group'""")).isEqualTo(GROUP_ITEMS);
        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#batchMessage").queryLabeled().getText())
                .contains("DONE: " + GROUP_ITEMS + " of " + GROUP_ITEMS + " items taken"));
    }
}
