package dev.redrive.console.dlq;

import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqRow;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The rows the DLQ table holds: a window of at most {@link DlqBrowserViewModel#MAX_ROWS} rows over the list in the
 * current order, and whether more rows lie before or after it. A page added at one edge drops rows at the other.
 */
final class RowWindow {
    private final ObservableList<DlqRow> rows = FXCollections.observableArrayList();
    // Held here: a read-only view follows its list only weakly, so a fresh one per call loses the listeners put on it
    // as soon as it is collected.
    private final ObservableList<DlqRow> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyBooleanWrapper hasNext = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper hasPrevious = new ReadOnlyBooleanWrapper();
    private final ReadOnlyIntegerWrapper mostRowsHeld = new ReadOnlyIntegerWrapper();

    /** The window holds just {@code shown}, with or without rows after and before it. */
    void reset(List<DlqRow> shown, boolean after, boolean before) {
        rows.setAll(shown);
        hasNext.set(after);
        hasPrevious.set(before);
        noteSize();
    }

    /** Appends the page after the last row; drops rows from the top beyond the window's size. */
    void append(DlqPage page) {
        List<DlqRow> all = new ArrayList<>(rows);
        all.addAll(page.rows());
        int drop = Math.max(0, all.size() - DlqBrowserViewModel.MAX_ROWS);
        rows.setAll(all.subList(drop, all.size()));
        hasNext.set(page.hasMore());
        if (drop > 0) {
            hasPrevious.set(true);
        }
        noteSize();
    }

    /** Prepends the page before the first row; drops rows beyond the window's size at the bottom. */
    void prepend(DlqPage page) {
        List<DlqRow> all = new ArrayList<>(page.rows());
        all.addAll(rows);
        int keep = Math.min(all.size(), DlqBrowserViewModel.MAX_ROWS);
        if (keep < all.size()) {
            hasNext.set(true);
        }
        rows.setAll(all.subList(0, keep));
        hasPrevious.set(page.hasMore());
        noteSize();
    }

    /** Puts each fresh row where the row of its entry is, so the window keeps its order. */
    void replaceInPlace(List<DlqRow> fresh) {
        Map<Long, DlqRow> byId = fresh.stream().collect(Collectors.toMap(DlqRow::id, Function.identity()));
        for (int i = 0; i < rows.size(); i++) {
            DlqRow now = byId.get(rows.get(i).id());
            if (now != null) {
                rows.set(i, now);
            }
        }
    }

    /** New entries lie past the last row (oldest first): scrolling down reaches them. */
    void moreAfter() {
        hasNext.set(true);
    }

    private void noteSize() {
        mostRowsHeld.set(Math.max(mostRowsHeld.get(), rows.size()));
    }

    ObservableList<DlqRow> rows() { return readOnlyRows; }
    boolean isEmpty() { return rows.isEmpty(); }
    DlqRow first() { return rows.get(0); }
    DlqRow last() { return rows.get(rows.size() - 1); }
    boolean hasNext() { return hasNext.get(); }
    boolean hasPrevious() { return hasPrevious.get(); }
    ReadOnlyBooleanProperty hasNextProperty() { return hasNext.getReadOnlyProperty(); }
    ReadOnlyBooleanProperty hasPreviousProperty() { return hasPrevious.getReadOnlyProperty(); }
    ReadOnlyIntegerProperty mostRowsHeldProperty() { return mostRowsHeld.getReadOnlyProperty(); }
}
