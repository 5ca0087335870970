package dev.redrive.console.dlq;

import dev.redrive.triage.query.DlqRow;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The entries the live tail announced that the table has not shown yet: the "N new" count, which goes down as they
 * come into view, and after "Show new" the first of them, which the table brings into view.
 */
final class NewEntries {
    /** The ids of the new entries counted that the table has not shown yet, in the order they arrived. */
    private final Set<Long> unseen = new LinkedHashSet<>();
    private final ReadOnlyIntegerWrapper newCount = new ReadOnlyIntegerWrapper();
    private final ReadOnlyStringWrapper newText = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<DlqRow> firstNew = new ReadOnlyObjectWrapper<>();

    /** Counts the arrived entries; false when none of them is new to the count. */
    boolean add(List<Long> arrived) {
        if (!unseen.addAll(arrived)) {
            return false;
        }
        showCount();
        return true;
    }

    /** Counts the new entries among {@code rows} from {@code first} to {@code last} as seen. */
    void countDownShown(List<DlqRow> rows, int first, int last) {
        if (unseen.isEmpty()) {
            return;
        }
        boolean shown = false;
        for (int i = Math.max(0, first); i <= Math.min(last, rows.size() - 1); i++) {
            shown |= unseen.remove(rows.get(i).id());
        }
        if (shown) {
            showCount();
        }
    }

    /** The ids counted now. */
    Set<Long> unseen() {
        return Set.copyOf(unseen);
    }

    void pointAt(DlqRow row) {
        firstNew.set(row);
    }

    void forget() {
        unseen.clear();
        showCount();
        firstNew.set(null);
    }

    private void showCount() {
        newCount.set(unseen.size());
        newText.set(unseen.isEmpty() ? "" : unseen.size() + " new");
    }

    ReadOnlyIntegerProperty newCountProperty() { return newCount.getReadOnlyProperty(); }
    ReadOnlyStringProperty newTextProperty() { return newText.getReadOnlyProperty(); }
    ReadOnlyObjectProperty<DlqRow> firstNewProperty() { return firstNew.getReadOnlyProperty(); }
}
