package dev.redrive.console.batch;

import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Truncations;
import dev.redrive.identity.OperationId;
import dev.redrive.services.TriageServices;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.BatchSelection;
import dev.redrive.triage.redaction.Redactor;
import javafx.scene.control.TableCell;
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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A batch of three redrives run from the Batches list while no worker runs: the list says they still run, follows
 * them once a worker comes, and ends on one succeeded, one failed again (with a link to its new entry) and one blocked
 * by its cancelled run.
 */
@ExtendWith(ApplicationExtension.class)
class BatchOutcomesViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> OPERATIONS = List.of("o-ok:charge:0", "o-again:charge:0", "o-cancelled:charge:0");

    private static TriageServices services;
    private final UiExecutor executor = UiExecutor.forFx(2);
    private final List<String> shownEntries = new CopyOnWriteArrayList<>();
    private Stage stage;

    @BeforeAll
    static void deadLetterThree() {
        try (DemoChargeWorker worker = new DemoChargeWorker(ns, "outcomes-seed", Duration.ofMinutes(5))) {
            deadLetter(worker, "o-ok", "forbidden:1");
            deadLetter(worker, "o-again", "forbidden");
            deadLetter(worker, "o-cancelled", "forbidden");
        }
        ns.database().jdbc().update("UPDATE runs SET status = 'CANCELLED', status_reason = 'order withdrawn' "
                + "WHERE run_id = 'o-cancelled'");
        services = TriageServices.over(ns.database(), ns.redis(), Clock.systemUTC());
    }

    private static void deadLetter(DemoChargeWorker worker, String run, String fault) {
        OperationId id = new OperationId(run, "charge", 0);
        worker.client().dispatch(worker.client().newDispatch(id, "demo.charge", "1",
                "{\"amount\":3,\"fault\":\"" + fault + "\"}", "trace-" + run, "corr-" + run, null));
        await().atMost(WAIT).until(() -> "DEAD_LETTERED".equals(status(id.value())));
    }

    private static String status(String operationId) {
        return ns.database().jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?",
                row -> row.getString(1), operationId).orElse("");
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(() -> robot.listTargetWindows().stream().filter(window -> window instanceof Stage)
                .toList().forEach(window -> ((Stage) window).close()));
        executor.close();
    }

    private void showBadge(FxRobot robot) {
        BatchesBackend backend = BatchesBackend.of(services.batches(), services.batchDecisions(),
                services.requests(Redactor.defaults()), services.batchOutcomes());
        robot.interact(() -> {
            stage = new Stage();
            BatchesView view = BatchesView.load(new BatchesViewModel(backend, executor, Clock.systemUTC()),
                    new BatchOutcomesViewModel(backend, executor));
            view.onShowEntry((operation, entry) -> shownEntries.add(operation + " " + entry));
            view.onExportReport(id -> shownEntries.add("report of batch " + id));
            ThemedStage.show(stage, new StackPane(view.badge()), 1280, 800);
        });
    }

    private static String summary(FxRobot robot) {
        return robot.lookup("#batchOutcomeSummary").queryLabeled().getText();
    }

    @Test
    void theOutcomesFollowTheRedrivesUntilTheySettle_andAFailedOneLinksToItsNewEntry(FxRobot robot)
            throws Exception {
        long id = services.batches().start(DecisionKind.REDRIVE, BatchSelection.operations(OPERATIONS),
                BatchOptions.of("ana", "permission granted", 50)).id();
        showBadge(robot);
        robot.clickOn("#batchesBadge");
        TableView<BatchRow> batches = robot.lookup("#batchesTable").queryTableView();
        await().atMost(WAIT).until(() -> robot.lookup("#batchesTable .table-row-cell").tryQuery().isPresent()
                && batches.getItems().stream().anyMatch(row -> row.id() == id));
        robot.interact(() -> batches.getSelectionModel().select(0));
        robot.clickOn("#resumeBatch");

        await().atMost(WAIT).until(() -> summary(robot).equals("Batch " + id
                + ": 3 item(s): 1 blocked (run_active 1), 2 still running; following the 2 still running"));
        // The rows are drawn a moment after the items arrive.
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(text(robot, "o-cancelled:charge:0")).isEqualTo("blocked by: run not active");
            assertThat(text(robot, "o-ok:charge:0")).startsWith("redriven, still running (attempt 2, ");
        });

        try (DemoChargeWorker worker = new DemoChargeWorker(ns, "outcomes-worker", Duration.ofSeconds(1))) {
            await().atMost(WAIT).until(() -> summary(robot).equals("Batch " + id + ": 3 item(s): 1 blocked "
                    + "(run_active 1), 1 succeeded, 1 failed again; every item has settled"));
        }
        long newEntry = ns.database().jdbc().queryLong(
                "SELECT id FROM dlq_entries WHERE operation_id = 'o-again:charge:0' AND attempt = 2");
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(text(robot, "o-ok:charge:0")).isEqualTo("redriven, then succeeded (attempt 2)");
            assertThat(text(robot, "o-again:charge:0")).isEqualTo("redriven as attempt 2, then failed again: "
                    + "new DLQ entry " + newEntry);
        });

        assertThat(Truncations.under(robot.lookup("#batchOutcomes").query().getScene().getRoot()))
                .as("the list over a console of 1280x800").isEmpty();
        robot.clickOn("#newEntry-" + newEntry);
        assertThat(shownEntries).containsExactly("o-again:charge:0 " + newEntry);
        // The batch's report (report --batch in the CLI) is one click away from its outcomes.
        robot.clickOn("#reportBatch");
        assertThat(shownEntries).containsExactly("o-again:charge:0 " + newEntry, "report of batch " + id);
    }

    /** What the outcomes table shows for one operation, as drawn. */
    private static String text(FxRobot robot, String operationId) {
        return robot.lookup("#batchOutcomes .table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(row -> row.getItem() instanceof BatchOutcomes.Item item && operationId.equals(item.operationId()))
                .flatMap(row -> robot.from(row).lookup(".table-cell").queryAllAs(TableCell.class).stream())
                .filter(cell -> "What became of it".equals(cell.getTableColumn().getText()))
                .map(TableCell::getText).findFirst().orElse("");
    }
}
