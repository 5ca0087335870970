package dev.redrive.console.dlq;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.CountText;
import dev.redrive.health.DlqEvent;
import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.query.DlqCount;
import dev.redrive.triage.query.DlqCursor;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqOrder;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import dev.redrive.triage.query.PageDirection;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The DLQ browser: a filter, the grouped (fingerprint) or flat view, and a window of rows that is paged by keyset as
 * the operator scrolls, newest or oldest entry first. The window never holds more than {@link #MAX_ROWS} rows:
 * scrolling down drops rows at the top, scrolling back up fetches them again. New DLQ events only raise an "N new"
 * count; the list moves when the operator asks for it. The count goes down as new entries come into view (oldest
 * first, scrolling down reaches them), and "Show new" points the table at the first of them.
 */
public final class DlqBrowserViewModel {
    public static final int PAGE_SIZE = 100;
    public static final int MAX_ROWS = 400;
    /** Fetch the next page when the visible rows come this close to the window's edge. */
    static final int PREFETCH_MARGIN = 25;

    /** The live tail of DLQ events; polled in the background. */
    @FunctionalInterface
    public interface LiveEvents {
        List<DlqEvent> poll();
    }

    private final DlqQueries queries;
    private final LiveEvents live;
    private final UiExecutor executor;
    private final Clock clock;

    private final FilterFields fields = new FilterFields();
    private final RowWindow window = new RowWindow();
    private final NewEntries newEntries = new NewEntries();
    private final NewGroups newGroups = new NewGroups();
    private Consumer<NewGroup> newGroupListener = group -> { };
    private final RowSelection selection = new RowSelection();
    private final ReadOnlyObjectWrapper<FingerprintGroup> openGroup = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper grouped = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyObjectWrapper<DlqOrder> order = new ReadOnlyObjectWrapper<>(DlqOrder.NEWEST_FIRST);
    private final ObservableList<FingerprintGroup> groups = FXCollections.observableArrayList();
    // Held here: a read-only view follows its list only weakly, so a fresh one per call loses the listeners put on it
    // as soon as it is collected.
    private final ObservableList<FingerprintGroup> readOnlyGroups = FXCollections.unmodifiableObservableList(groups);
    private final ReadOnlyObjectWrapper<DlqFilter> appliedFilter = new ReadOnlyObjectWrapper<>(DlqFilter.none());
    private final ReadOnlyStringWrapper countText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper filterError = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private int lastVisibleFirst = -1;
    private int lastVisibleLast = -1;

    private long generation;
    private boolean polling;

    public DlqBrowserViewModel(DlqQueries queries, LiveEvents live, UiExecutor executor, Clock clock) {
        this.queries = queries;
        this.live = live;
        this.executor = executor;
        this.clock = clock;
    }

    /** Builds the filter from the bar's fields and reloads; a bad field is named in {@link #filterErrorProperty()}. */
    public void applyFilter() {
        DlqFilter filter;
        try {
            filter = fields.build(openGroup.get(), clock);
        } catch (IllegalArgumentException e) {
            filterError.set(e.getMessage());
            return;
        }
        filterError.set("");
        appliedFilter.set(filter);
        reload();
    }

    /** Clears every filter field (and an open group) and reloads. */
    public void clearFilter() {
        fields.clear();
        openGroup.set(null);
        applyFilter();
    }

    /** Loads the first page (or the groups) for the applied filter and order, forgetting the "new" count. */
    public void reload() {
        reload(false);
    }

    /** {@link #reload()}; with {@code revealNew} it then points the table at the top, where new entries are. */
    private void reload(boolean revealNew) {
        long ticket = ++generation;
        DlqFilter filter = appliedFilter.get();
        DlqOrder sort = order.get();
        newEntries.forget();
        loading.set(true);
        if (grouped.get()) {
            executor.submit("Loading fingerprint groups", () -> queries.groups(filter), loaded -> {
                if (ticket == generation) {
                    loading.set(false);
                    groups.setAll(loaded);
                    countText.set(CountText.of(loaded.size(), "group", "groups") + " · " + CountText.of(
                            loaded.stream().mapToLong(FingerprintGroup::count).sum(), "entry", "entries"));
                }
            }, this::failed);
            return;
        }
        executor.submit("Loading DLQ entries", () -> queries.firstPage(filter, sort, PAGE_SIZE), page -> {
            if (ticket == generation) {
                loading.set(false);
                window.reset(page.rows(), page.hasNext(), false);
                if (revealNew && !window.isEmpty()) {
                    newEntries.pointAt(window.first());
                }
            }
        }, this::failed);
        executor.submit("Counting DLQ entries", () -> queries.count(filter), count -> {
            if (ticket == generation) {
                countText.set(describe(count));
            }
        }, this::failed);
    }

    private void failed(UiExecutor.TaskFailure failure) {
        loading.set(false);
        executor.report(failure);
    }

    private static String describe(DlqCount count) {
        return count.display() + (count.exact() && count.value() == 1 ? " entry" : " entries");
    }

    /** Tells the model which rows the table shows; it fetches the next page before the operator reaches the edge. */
    public void onVisibleRange(int first, int last) {
        lastVisibleFirst = first;
        lastVisibleLast = last;
        if (grouped.get() || window.isEmpty()) {
            return;
        }
        newEntries.countDownShown(window.rows(), first, last);
        if (loading.get()) {
            return;
        }
        if (window.hasNext() && last >= window.rows().size() - PREFETCH_MARGIN) {
            loadNext();
        } else if (window.hasPrevious() && first <= PREFETCH_MARGIN) {
            loadPrevious();
        }
    }

    /** Appends the page after the last row in the current order; drops rows from the top beyond {@link #MAX_ROWS}. */
    public void loadNext() {
        loadPage("Loading more DLQ entries", PageDirection.NEXT, window::append);
    }

    /** Prepends the page before the first row in the current order; drops rows beyond {@link #MAX_ROWS} at the bottom. */
    public void loadPrevious() {
        loadPage("Loading earlier DLQ entries", PageDirection.PREVIOUS, window::prepend);
    }

    /** Reads the page beyond the window's edge in {@code direction} and hands it to {@code into}, unless reloaded since. */
    private void loadPage(String what, PageDirection direction, Consumer<DlqPage> into) {
        if (window.isEmpty() || loading.get()) {
            return;
        }
        long ticket = generation;
        DlqCursor cursor = (direction == PageDirection.NEXT ? window.last() : window.first()).cursor();
        DlqFilter filter = appliedFilter.get();
        DlqOrder sort = order.get();
        loading.set(true);
        executor.submit(what, () -> queries.page(filter, sort, cursor, direction, PAGE_SIZE), page -> {
            if (ticket != generation) {
                return;
            }
            loading.set(false);
            into.accept(page);
        }, this::failed);
    }

    /** Reads new DLQ events in the background and counts those the applied filter matches. */
    public void pollLive() {
        if (polling) {
            return;
        }
        polling = true;
        long ticket = generation;
        DlqFilter filter = appliedFilter.get();
        executor.submit("Reading new DLQ events", () -> arrived(filter), arrival -> {
            polling = false;
            arrival.started().forEach(newGroupListener);
            // A reload since the poll began shows the newest entries anyway and forgets what was new.
            if (ticket == generation && newEntries.add(arrival.matching())) {
                if (order.get() == DlqOrder.OLDEST_FIRST && !window.isEmpty() && !grouped.get()) {
                    // Oldest first, new entries lie past the last row: scrolling down reaches them, the list stays put.
                    // An operator already at the bottom gets them appended as if they had scrolled.
                    window.moreAfter();
                    if (lastVisibleLast >= 0) {
                        onVisibleRange(lastVisibleFirst, lastVisibleLast);
                    }
                }
            }
        }, failure -> {
            polling = false;
            executor.report(failure);
        });
    }

    /**
     * What arrived since the last poll: the ids of the entries that the filter matches, in the order they arrived, and
     * the failure groups any of them started (whatever the filter).
     */
    private Arrival arrived(DlqFilter filter) {
        List<DlqEvent> events = live.poll();
        List<Long> arrived = events.stream().map(DlqEvent::dlqEntryId).toList();
        Set<Long> matching = queries.matching(filter, arrived);
        return new Arrival(arrived.stream().filter(matching::contains).toList(), newGroups.startedBy(events, queries));
    }

    private record Arrival(List<Long> matching, List<NewGroup> started) {
    }

    /** Told of each failure group that starts while the list is watched, once per group (a desktop notice). */
    public void onNewGroup(Consumer<NewGroup> listener) {
        this.newGroupListener = listener;
    }

    /**
     * Shows the new entries: the newest page, on top newest first or at the bottom oldest first, with
     * {@link #firstNewProperty()} set to the first of them in the table's order.
     */
    public void showNew() {
        if (order.get() == DlqOrder.NEWEST_FIRST || grouped.get()) {
            reload(true);
            return;
        }
        long ticket = ++generation;
        DlqFilter filter = appliedFilter.get();
        Set<Long> arrived = newEntries.unseen();
        newEntries.forget();
        loading.set(true);
        executor.submit("Loading the newest DLQ entries", () -> queries.firstPage(filter, DlqOrder.NEWEST_FIRST, PAGE_SIZE),
                page -> {
                    if (ticket == generation) {
                        loading.set(false);
                        List<DlqRow> oldestFirst = new ArrayList<>(page.rows());
                        Collections.reverse(oldestFirst);
                        window.reset(oldestFirst, false, page.hasNext());
                        // With more new entries than a page, the first of them is not on it: then the newest row.
                        List<DlqRow> rows = window.rows();
                        rows.stream().filter(row -> arrived.contains(row.id())).findFirst()
                                .or(() -> rows.isEmpty() ? Optional.empty() : Optional.of(window.last()))
                                .ifPresent(newEntries::pointAt);
                    }
                }, this::failed);
    }

    /** Switches between newest-first and oldest-first and reloads from the first page in the new order. */
    public void setOrder(DlqOrder value) {
        if (order.get() != value) {
            order.set(value);
            reload();
        }
    }

    /** Narrows the flat list to one fingerprint group. */
    public void openGroup(FingerprintGroup group) {
        openGroup.set(group);
        grouped.set(false);
        applyFilter();
    }

    public void closeGroup() {
        openGroup.set(null);
        applyFilter();
    }

    /** Switches between the grouped and the flat view and reloads. */
    public void setGrouped(boolean value) {
        if (grouped.get() != value) {
            grouped.set(value);
            reload();
        }
    }

    /**
     * Reads the given entries again and puts each in its row where it is, so the list keeps its order, selection and
     * scroll position (a decision changes an entry's state, never where it sits); in the grouped view the counts are
     * read again. {@code afterwards} runs once the rows are in place (at once when there is nothing to read).
     */
    public void refreshRows(List<Long> entryIds, Runnable afterwards) {
        if (entryIds.isEmpty()) {
            afterwards.run();
            return;
        }
        if (grouped.get()) {
            reload();
            afterwards.run();
            return;
        }
        long ticket = generation;
        executor.submit("Reading the decided entries again", () -> queries.rows(entryIds), fresh -> {
            if (ticket == generation) {
                selection.replaceKeepingSelection(window, fresh);
            }
            afterwards.run();
        }, this::failed);
    }

    /**
     * Entries were decided outside this list (a batch ended): the groups' counts, or the shown rows' states, are read
     * again, the rows staying where they are.
     */
    public void decidedElsewhere() {
        if (grouped.get()) {
            reload();
        } else {
            refreshRows(window.rows().stream().map(DlqRow::id).toList(), () -> { });
        }
    }

    /** The table's selection, in table order; the last selected row is the one the detail pane shows. */
    public void select(List<DlqRow> selected, DlqRow focused) {
        selection.select(selected, focused);
    }

    /** Now, by the model's clock: what "3 min ago" is counted from. */
    public java.time.Instant now() { return clock.instant(); }

    /**
     * The Operation column: an entry without an operation of its own says so, with the operation its message named
     * (if any), so it is never taken for that operation's entry.
     */
    public static String operationText(DlqRow row) {
        if (row.ownEntry()) {
            return row.operationId();
        }
        return row.operationId() == null ? "no operation" : "no operation · names " + row.operationId();
    }

    public ObjectProperty<FailureClass> errorClassProperty() { return fields.errorClassProperty(); }
    public StringProperty toolProperty() { return fields.toolProperty(); }
    public StringProperty runIdProperty() { return fields.runIdProperty(); }
    public StringProperty traceIdProperty() { return fields.traceIdProperty(); }
    public ObjectProperty<TimeRange> timeRangeProperty() { return fields.timeRangeProperty(); }
    public ObjectProperty<SideEffectState> sideEffectProperty() { return fields.sideEffectProperty(); }
    public ObjectProperty<DecisionState> decisionStateProperty() { return fields.decisionStateProperty(); }
    public StringProperty textProperty() { return fields.textProperty(); }
    public ReadOnlyObjectProperty<FingerprintGroup> openGroupProperty() { return openGroup.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty groupedProperty() { return grouped.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<DlqOrder> orderProperty() { return order.getReadOnlyProperty(); }
    public ObservableList<DlqRow> rows() { return window.rows(); }
    public ObservableList<FingerprintGroup> groups() { return readOnlyGroups; }
    public ObservableList<DlqRow> selection() { return selection.selection(); }
    public ReadOnlyObjectProperty<DlqRow> currentProperty() { return selection.currentProperty(); }
    public ReadOnlyObjectProperty<DlqFilter> appliedFilterProperty() { return appliedFilter.getReadOnlyProperty(); }
    public ReadOnlyStringProperty countTextProperty() { return countText.getReadOnlyProperty(); }
    public ReadOnlyStringProperty filterErrorProperty() { return filterError.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty newCountProperty() { return newEntries.newCountProperty(); }
    public ReadOnlyStringProperty newTextProperty() { return newEntries.newTextProperty(); }
    public ReadOnlyBooleanProperty loadingProperty() { return loading.getReadOnlyProperty(); }
    /** Whether rows exist after the window in the current order (older newest-first, newer oldest-first). */
    public ReadOnlyBooleanProperty hasNextProperty() { return window.hasNextProperty(); }
    /** Whether rows exist before the window in the current order. */
    public ReadOnlyBooleanProperty hasPreviousProperty() { return window.hasPreviousProperty(); }
    /** After "Show new": the first new entry in the table's order, which the table brings into view; else null. */
    public ReadOnlyObjectProperty<DlqRow> firstNewProperty() { return newEntries.firstNewProperty(); }
    /** Rows the table should select again after they were read anew in place, the current one last. */
    public ReadOnlyObjectProperty<List<DlqRow>> reselectProperty() { return selection.reselectProperty(); }
    /** The most rows the window has held at once since it was created: proof that paging stays bounded. */
    public ReadOnlyIntegerProperty mostRowsHeldProperty() { return window.mostRowsHeldProperty(); }
}
