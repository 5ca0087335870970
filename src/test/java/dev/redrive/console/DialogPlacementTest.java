package dev.redrive.console;

import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.console.dlq.DlqTableClicks;
import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import javafx.geometry.Rectangle2D;
import javafx.geometry.Side;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Clock;
import java.util.List;

import static dev.redrive.console.ScreensFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

/**
 * Dialogs come up over the middle of the console window, wherever that window is, with the focus in their reason;
 * Enter typed in a field decides nothing, and Escape closes them: the group batch dialog from the groups' context
 * menu, and the discard dialog from the detail pane.
 */
@ExtendWith(ApplicationExtension.class)
class DialogPlacementTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-dialogs");

    private Stage console;

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(40, "dialogs");
    }

    @Start
    void start(Stage stage) {
        console = stage;
        onStage.show(stage, new RecordingDesktop(), 1100, 700, 0.55);
        stage.setX(90);
        stage.setY(50);
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(() -> robot.listTargetWindows().stream().filter(window -> window != console).toList()
                .forEach(Window::hide));
    }

    private void assertCentredOnTheConsole(Window dialog) {
        assertThat(dialog.getX()).isGreaterThan(console.getX());
        assertThat(dialog.getY()).isGreaterThan(console.getY());
        assertThat(dialog.getX() + dialog.getWidth()).isLessThan(console.getX() + console.getWidth());
        assertThat(dialog.getY() + dialog.getHeight()).isLessThan(console.getY() + console.getHeight());
        assertThat(dialog.getX() + dialog.getWidth() / 2).isCloseTo(console.getX() + console.getWidth() / 2, offset(1.0));
        assertThat(dialog.getY() + dialog.getHeight() / 2).isCloseTo(console.getY() + console.getHeight() / 2, offset(1.0));
    }

    @Test
    void theGroupBatchDialog_fromTheContextMenu_isCentredOnTheConsole_andEscapeClosesIt(FxRobot robot) {
        robot.clickOn("#groupedView");
        TableView<FingerprintGroup> groups = robot.lookup("#groupTable").queryTableView();
        await().atMost(WAIT).until(() -> robot.lookup("#groupTable .table-row-cell").tryQuery()
                .map(row -> !groups.getItems().isEmpty()).orElse(false));
        Node row = robot.lookup("#groupTable .table-row-cell").nth(0).queryAs(Node.class);
        robot.clickOn(row);
        // Headless, a right click opens no context menu: ask for it as the platform does.
        robot.interact(() -> groups.getContextMenu().show(row, Side.BOTTOM, 0, 0));
        assertThat(groups.getContextMenu().getItems()).extracting(MenuItem::getText)
                .contains("Export incident report of the group…");
        robot.clickOn("Redrive whole group as a batch…");

        await().atMost(WAIT).until(() -> robot.lookup("#groupBatchReason").tryQuery().isPresent());
        Window dialog = robot.lookup("#groupBatchReason").query().getScene().getWindow();
        await().atMost(WAIT).until(dialog::isShowing);
        assertCentredOnTheConsole(dialog);

        await().atMost(WAIT).until(() -> focused(dialog, "groupBatchReason"));
        robot.write("ledger is back").type(KeyCode.TAB);
        assertThat(focused(dialog, "groupBatchOperator")).as("Tab leaves the reason").isTrue();
        robot.type(KeyCode.ENTER);
        robot.interact(() -> { });
        assertThat(dialog.isShowing()).as("Enter in the operator field").isTrue();
        robot.type(KeyCode.ESCAPE);
        await().atMost(WAIT).until(() -> !dialog.isShowing());
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_batches")).isZero();
    }

    @Test
    void theDiscardDialog_isCentredOnTheConsole_andEscapeClosesItWithoutDeciding(FxRobot robot) {
        TableView<DlqRow> table = DlqTableClicks.loadedTable(robot, WAIT);
        // The generator decides some entries already; a decided one offers no discard.
        DlqTableClicks.clickFirstOpen(robot);
        long entry = table.getSelectionModel().getSelectedItem().id();
        String before = decision(entry);
        await().atMost(WAIT).until(() -> !robot.lookup("#detailOperationId").queryLabeled().getText().isEmpty());
        robot.clickOn("More");
        robot.clickOn("Discard…");

        await().atMost(WAIT).until(() -> robot.lookup("#decisionDialogReason").tryQuery().isPresent());
        Window dialog = robot.lookup("#decisionDialogReason").query().getScene().getWindow();
        assertCentredOnTheConsole(dialog);
        assertThat(robot.from(dialog.getScene().getRoot()).lookup(".label").queryAllAs(Labeled.class))
                .filteredOn(label -> List.of("Reason", "Operator").contains(label.getText()))
                .as("the field labels, shown whole").hasSize(2)
                .allSatisfy(label -> assertThat(label.getWidth()).isGreaterThanOrEqualTo(label.prefWidth(-1) - 0.5));
        await().atMost(WAIT).until(() -> focused(dialog, "decisionDialogReason"));
        robot.write("a stray key").type(KeyCode.TAB).type(KeyCode.ENTER);
        robot.interact(() -> { });
        assertThat(dialog.isShowing()).as("Enter in the operator field").isTrue();
        assertThat(decision(entry)).isEqualTo(before);
        robot.type(KeyCode.ESCAPE);

        await().atMost(WAIT).until(() -> !dialog.isShowing());
        assertThat(decision(entry)).isEqualTo(before);
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM audit_log WHERE reason = 'a stray key'")).isZero();
    }

    private static boolean focused(Window window, String id) {
        Node owner = window.getScene().getFocusOwner();
        return owner != null && id.equals(owner.getId());
    }

    private static String decision(long entry) {
        return ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), entry).orElseThrow();
    }

    @Test
    void aDialogLargerThanTheRoomBesideItsOwner_staysOnTheScreen() {
        Rectangle2D at = DialogPlacement.centred(new Rectangle2D(1000, 600, 400, 300), 900, 500,
                new Rectangle2D(0, 0, 1280, 800));

        assertThat(at).isEqualTo(new Rectangle2D(380, 300, 900, 500));
    }
}
