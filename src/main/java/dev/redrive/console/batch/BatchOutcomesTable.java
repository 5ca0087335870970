package dev.redrive.console.batch;

import dev.redrive.console.ui.TextColumn;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

import java.util.List;
import java.util.function.Consumer;

/** The chosen batch's items, one row each: what became of it, and a link to the entry a failed redrive left. */
final class BatchOutcomesTable {
    private BatchOutcomesTable() {
    }

    static void setUp(TableView<BatchOutcomes.Item> table, Consumer<BatchOutcomes.Item> showEntry) {
        TableColumn<BatchOutcomes.Item, BatchOutcomes.Item> entry = new TableColumn<>("New DLQ entry");
        entry.setPrefWidth(150);
        entry.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        entry.setCellFactory(column -> new EntryLinkCell(showEntry));
        table.getColumns().setAll(List.of(
                TextColumn.of("#", 50, item -> String.valueOf(item.seq())),
                TextColumn.of("Operation", 300, item -> item.operationId() == null ? "DLQ entry " + item.dlqEntryId()
                        : item.operationId()),
                TextColumn.of("What became of it", 480, BatchOutcomesViewModel::describe),
                entry));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        // Rows of one height, the link's as the text's.
        table.setFixedCellSize(26);
        table.setPlaceholder(new Label("No item taken yet."));
    }

    /** "entry 812 ▸" on an item that failed again: one click shows that entry in the console. */
    private static final class EntryLinkCell extends TableCell<BatchOutcomes.Item, BatchOutcomes.Item> {
        private final Hyperlink link = new Hyperlink();
        private final Consumer<BatchOutcomes.Item> showEntry;

        EntryLinkCell(Consumer<BatchOutcomes.Item> showEntry) {
            this.showEntry = showEntry;
            link.setOnAction(event -> {
                if (getItem() != null) {
                    showEntry.accept(getItem());
                }
            });
        }

        @Override
        protected void updateItem(BatchOutcomes.Item item, boolean empty) {
            super.updateItem(item, empty);
            if (empty || item == null || item.newDlqEntryId() == null) {
                setGraphic(null);
            } else {
                link.setText("entry " + item.newDlqEntryId() + " ▸");
                link.setId("newEntry-" + item.newDlqEntryId());
                setGraphic(link);
            }
        }
    }
}
