package dev.redrive.console.dlq;

import dev.redrive.triage.query.DlqRow;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;

/** The rows the table has selected, the one the detail pane shows, and the selection to restore after rows change. */
final class RowSelection {
    private final ObservableList<DlqRow> selection = FXCollections.observableArrayList();
    // Held here: a read-only view follows its list only weakly (see RowWindow).
    private final ObservableList<DlqRow> readOnlySelection = FXCollections.unmodifiableObservableList(selection);
    private final ReadOnlyObjectWrapper<DlqRow> current = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<List<DlqRow>> reselect = new ReadOnlyObjectWrapper<>(List.of());

    void select(List<DlqRow> selected, DlqRow focused) {
        selection.setAll(selected);
        current.set(focused);
    }

    /**
     * Puts the fresh rows in the window in place and asks the view to select the same entries again, current last: a
     * table drops the selection of a replaced row.
     */
    void replaceKeepingSelection(RowWindow window, List<DlqRow> fresh) {
        List<Long> selectedIds = selection.stream().map(DlqRow::id).toList();
        Long currentId = current.get() == null ? null : current.get().id();
        window.replaceInPlace(fresh);
        List<DlqRow> rows = window.rows();
        List<DlqRow> again = new ArrayList<>(rows.stream().filter(row -> selectedIds.contains(row.id())
                && !Long.valueOf(row.id()).equals(currentId)).toList());
        rows.stream().filter(row -> Long.valueOf(row.id()).equals(currentId)).findFirst().ifPresent(again::add);
        reselect.set(List.copyOf(again));
    }

    ObservableList<DlqRow> selection() { return readOnlySelection; }
    ReadOnlyObjectProperty<DlqRow> currentProperty() { return current.getReadOnlyProperty(); }
    ReadOnlyObjectProperty<List<DlqRow>> reselectProperty() { return reselect.getReadOnlyProperty(); }
}
