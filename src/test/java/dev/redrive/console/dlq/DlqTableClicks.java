package dev.redrive.console.dlq;

import dev.redrive.model.DecisionState;
import dev.redrive.triage.query.DlqRow;
import javafx.event.Event;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.input.PickResult;
import org.testfx.api.FxRobot;

import java.time.Duration;
import java.util.Comparator;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/**
 * Clicks DLQ entries where an operator would: on the row's first cell. The row itself is wider than the table when
 * the columns are, and its centre can lie outside the visible part.
 */
public final class DlqTableClicks {
    private DlqTableClicks() {
    }

    /** The DLQ list once its first page has shown at least one entry. */
    public static TableView<DlqRow> loadedTable(FxRobot robot, Duration wait) {
        TableView<DlqRow> table = robot.lookup("#dlqTable").queryTableView();
        await().atMost(wait).until(() -> !table.getItems().isEmpty());
        return table;
    }

    /** Clicks the first entry in the table's order. */
    public static void clickFirst(FxRobot robot) {
        click(robot, row -> row.getIndex() == 0);
    }

    /** Clicks the first entry in the table's order that is still open: one a dialog can decide. */
    public static void clickFirstOpen(FxRobot robot) {
        click(robot, row -> row.getItem() instanceof DlqRow item && item.decisionState() == DecisionState.OPEN);
    }

    /** Clicks the entry of this operation. */
    public static void clickOperation(FxRobot robot, String operationId) {
        click(robot, row -> row.getItem() instanceof DlqRow item && operationId.equals(item.operationId()));
    }

    /** Clicks the entry with this DLQ entry id. */
    public static void clickEntry(FxRobot robot, long entryId) {
        click(robot, row -> row.getItem() instanceof DlqRow item && item.id() == entryId);
    }

    /** Double-clicks the entry with this DLQ entry id: what opens the wizard on it. */
    public static void doubleClickEntry(FxRobot robot, long entryId) {
        robot.doubleClickOn(firstCell(robot, row -> row.getItem() instanceof DlqRow item && item.id() == entryId));
    }

    /**
     * Right-clicks the first entry in the table's order, as an operator does to open its context menu: the robot's
     * press and release select the row, then the cell under the pointer gets the context-menu request that a desktop's
     * window system sends after a right-click, and that headless Monocle never sends.
     */
    public static void rightClickFirst(FxRobot robot) {
        Node cell = firstCell(robot, row -> row.getIndex() == 0);
        robot.rightClickOn(cell);
        Point2D pointer = robot.point(cell).query();
        robot.interact(() -> {
            Point2D inScene = cell.getScene().getRoot().screenToLocal(pointer);
            Event.fireEvent(cell, new ContextMenuEvent(ContextMenuEvent.CONTEXT_MENU_REQUESTED, inScene.getX(),
                    inScene.getY(), pointer.getX(), pointer.getY(), false, new PickResult(cell, inScene.getX(), inScene.getY())));
        });
    }

    private static void click(FxRobot robot, Predicate<TableRow<?>> which) {
        robot.clickOn(firstCell(robot, which));
    }

    private static Node firstCell(FxRobot robot, Predicate<TableRow<?>> which) {
        Node row = robot.lookup("#dlqTable .table-row-cell")
                .match(node -> node instanceof TableRow<?> tableRow && !tableRow.isEmpty() && which.test(tableRow))
                .query();
        Node firstCell = robot.from(row).lookup(".table-cell").queryAllAs(TableCell.class).stream()
                .min(Comparator.comparingDouble(cell -> cell.localToScene(0, 0).getX()))
                .orElseThrow();
        return firstCell;
    }
}
