package dev.redrive.console.wizard;

import dev.redrive.console.ui.CountText;
import dev.redrive.console.ui.SideEffectBadge;
import dev.redrive.console.ui.TextColumn;
import dev.redrive.console.ui.WholeTextCell;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.detail.DlqEntryRecord;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.OverrunStyle;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/** The wizard's tables of a batch's items, one per step, and the checks' tally. */
final class WizardTables {
    private WizardTables() {
    }

    static void setUp(ReconciliationWizardViewModel model, TableView<WizardItem> evidence,
                      TableView<WizardItem> reconcile, TableView<WizardItem> checks, TableView<WizardItem> results,
                      TableView<CheckTally> tally, Consumer<WizardItem> openItem) {
        evidence.getColumns().setAll(List.of(
                TextColumn.of("Operation", 260, WizardItem::subject),
                TextColumn.of("Class", 150, item -> entry(item).map(e -> e.errorClass().name()).orElse("")),
                badgeColumn(),
                TextColumn.of("Last error", 340, item -> entry(item).map(DlqEntryRecord::errorMessage).orElse(""))));
        reconcile.getColumns().setAll(List.of(
                TextColumn.of("Operation", 260, WizardItem::subject),
                badgeColumn(),
                TextColumn.of("Reconciliation", 460, item -> item.reconciliationProperty().get())));
        checks.getColumns().setAll(List.of(
                TextColumn.of("Operation", 260, WizardItem::subject),
                TextColumn.of("Checks", 380, item -> item.checkSummaryProperty().get()),
                TextColumn.of("Can still get", 180, item -> item.stillPossibleProperty().get())));
        tally.getColumns().setAll(List.of(
                TextColumn.<CheckTally>of("Condition", 200, row -> row.check().title()),
                TextColumn.<CheckTally>of("Blocks", 80, row -> CountText.of(row.blocked(), "entry", "entries")),
                TextColumn.of("Found", 260, CheckTally::found),
                TextColumn.of("They can still get", 260, CheckTally::stillPossible)));
        tally.setItems(model.tallies());
        tally.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        tally.setPlaceholder(new Label("No check blocks any entry."));
        TableColumn<WizardItem, String> operation = TextColumn.of("Operation", 260, WizardItem::subject);
        // Operation ids of one batch share their start (the run): the end tells them apart, so it is the middle that
        // gives way.
        operation.setCellFactory(c -> {
            WholeTextCell<WizardItem> cell = new WholeTextCell<>(false);
            cell.setTextOverrun(OverrunStyle.CENTER_ELLIPSIS);
            return cell;
        });
        results.getColumns().setAll(List.of(operation, TextColumn.of("What happened", 640,
                item -> item.outcomeProperty().get() == null ? "" : item.outcomeProperty().get().text())));
        for (TableView<WizardItem> table : List.of(evidence, reconcile, checks, results)) {
            table.setItems(model.items());
            table.setFixedCellSize(26);
            table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
            table.getColumns().forEach(c -> c.setSortable(false));
        }
        results.setRowFactory(table -> new ResultRow(openItem));
        results.setTooltip(new Tooltip("Double-click an entry to show where it is now in the console"));
    }

    static Optional<DlqEntryRecord> entry(WizardItem item) {
        return Optional.ofNullable(item.entryProperty().get());
    }

    private static TableColumn<WizardItem, SideEffectState> badgeColumn() {
        TableColumn<WizardItem, SideEffectState> column = new TableColumn<>("Side effect");
        column.setPrefWidth(120);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue().sideEffectProperty().get()));
        column.setCellFactory(c -> SideEffectBadge.tableCell());
        return column;
    }

    /** A result row coloured by how the item ended; a double-click shows where the item is now in the console. */
    private static final class ResultRow extends TableRow<WizardItem> {
        ResultRow(Consumer<WizardItem> openItem) {
            setOnMouseClicked(event -> {
                if (event.getClickCount() == 2 && !isEmpty()) {
                    openItem.accept(getItem());
                }
            });
        }

        @Override
        protected void updateItem(WizardItem item, boolean empty) {
            super.updateItem(item, empty);
            getStyleClass().removeIf(style -> style.startsWith("result-"));
            ItemResult outcome = empty || item == null ? null : item.outcomeProperty().get();
            if (outcome != null) {
                getStyleClass().add("result-" + outcome.kind().name().toLowerCase(Locale.ROOT));
            }
        }
    }
}
