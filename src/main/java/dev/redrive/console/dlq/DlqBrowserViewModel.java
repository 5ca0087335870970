package dev.redrive.console.dlq;

import dev.redrive.console.concurrent.UiExecutor;
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
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

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

    private final ObjectProperty<FailureClass> errorClass = new SimpleObjectProperty<>();
    private final StringProperty tool = new SimpleStringProperty("");
    private final StringProperty runId = new SimpleStringProperty("");
    private final StringProperty traceId = new SimpleStringProperty("");
    private final ObjectProperty<TimeRange> timeRange = new SimpleObjectProperty<>(TimeRange.ANY);
    private final ObjectProperty<SideEffectState> sideEffect = new SimpleObjectProperty<>();
    private final ObjectProperty<DecisionState> decisionState = new SimpleObjectProperty<>();
    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<FingerprintGroup> openGroup = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper grouped = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyObjectWrapper<DlqOrder> order = new ReadOnlyObjectWrapper<>(DlqOrder.NEWEST_FIRST);

    private final ObservableList<DlqRow> rows = FXCollections.observableArrayList();
    private final ObservableList<FingerprintGroup> groups = FXCollections.observableArrayList();
    private final ObservableList<DlqRow> selection = FXCollections.observableArrayList();
    // One read-only view each, held here: such a view follows its list only weakly, so a fresh one per call loses
    // the listeners put on it as soon as it is collected.
    private final ObservableList<DlqRow> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ObservableList<FingerprintGroup> readOnlyGroups = FXCollections.unmodifiableObservableList(groups);
    private final ObservableList<DlqRow> readOnlySelection = FXCollections.unmodifiableObservableList(selection);
    private final ReadOnlyObjectWrapper<DlqRow> current = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<DlqFilter> appliedFilter = new ReadOnlyObjectWrapper<>(DlqFilter.none());
    private final ReadOnlyStringWrapper countText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper filterError = new ReadOnlyStringWrapper("");
    private final ReadOnlyIntegerWrapper newCount = new ReadOnlyIntegerWrapper();
    private final ReadOnlyStringWrapper newText = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper hasNext = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper hasPrevious = new ReadOnlyBooleanWrapper();
    private final ReadOnlyIntegerWrapper mostRowsHeld = new ReadOnlyIntegerWrapper();
    private final ReadOnlyObjectWrapper<DlqRow> firstNew = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<List<DlqRow>> reselect = new ReadOnlyObjectWrapper<>(List.of());
    /** The ids of the new entries counted in {@link #newCountProperty()} that the table has not shown yet. */
    private final Set<Long> unseen = new LinkedHashSet<>();
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
            FingerprintGroup group = openGroup.get();
            filter = DlqFilter.builder().errorClass(errorClass.get()).tool(tool.get()).runId(runId.get())
                    .traceOrCorrelationId(traceId.get())
                    .enteredFrom(timeRange.get() == null ? null : timeRange.get().from(clock.instant()))
                    .sideEffect(sideEffect.get()).decisionState(decisionState.get()).text(text.get())
                    .fingerprint(group == null ? null : group.fingerprint()).build();
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
        errorClass.set(null);
        tool.set("");
        runId.set("");
        traceId.set("");
        timeRange.set(TimeRange.ANY);
        sideEffect.set(null);
        decisionState.set(null);
        text.set("");
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
        forgetNew();
        loading.set(true);
        if (grouped.get()) {
            executor.submit("Loading fingerprint groups", () -> queries.groups(filter), loaded -> {
                if (ticket == generation) {
                    loading.set(false);
                    groups.setAll(loaded);
                    countText.set(loaded.size() + " groups · " + loaded.stream().mapToLong(FingerprintGroup::count).sum()
                            + " entries");
                }
            }, this::failed);
            return;
        }
        executor.submit("Loading DLQ entries", () -> queries.firstPage(filter, sort, PAGE_SIZE), page -> {
            if (ticket == generation) {
                loading.set(false);
                rows.setAll(page.rows());
                hasNext.set(page.hasNext());
                hasPrevious.set(false);
                noteSize();
                if (revealNew && !rows.isEmpty()) {
                    firstNew.set(rows.get(0));
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
        if (grouped.get() || rows.isEmpty()) {
            return;
        }
        countDownShown(first, last);
        if (loading.get()) {
            return;
        }
        if (hasNext.get() && last >= rows.size() - PREFETCH_MARGIN) {
            loadNext();
        } else if (hasPrevious.get() && first <= PREFETCH_MARGIN) {
            loadPrevious();
        }
    }

    /** Appends the page after the last row in the current order; drops rows from the top beyond {@link #MAX_ROWS}. */
    public void loadNext() {
        if (rows.isEmpty() || loading.get()) {
            return;
        }
        long ticket = generation;
        DlqCursor cursor = rows.get(rows.size() - 1).cursor();
        DlqFilter filter = appliedFilter.get();
        DlqOrder sort = order.get();
        loading.set(true);
        executor.submit("Loading more DLQ entries", () -> queries.page(filter, sort, cursor, PageDirection.NEXT, PAGE_SIZE),
                page -> {
                    if (ticket != generation) {
                        return;
                    }
                    loading.set(false);
                    List<DlqRow> all = new ArrayList<>(rows);
                    all.addAll(page.rows());
                    int drop = Math.max(0, all.size() - MAX_ROWS);
                    rows.setAll(all.subList(drop, all.size()));
                    hasNext.set(page.hasMore());
                    if (drop > 0) {
                        hasPrevious.set(true);
                    }
                    noteSize();
                }, this::failed);
    }

    /** Prepends the page before the first row in the current order; drops rows beyond {@link #MAX_ROWS} at the bottom. */
    public void loadPrevious() {
        if (rows.isEmpty() || loading.get()) {
            return;
        }
        long ticket = generation;
        DlqCursor cursor = rows.get(0).cursor();
        DlqFilter filter = appliedFilter.get();
        DlqOrder sort = order.get();
        loading.set(true);
        executor.submit("Loading earlier DLQ entries",
                () -> queries.page(filter, sort, cursor, PageDirection.PREVIOUS, PAGE_SIZE),
                (DlqPage page) -> {
                    if (ticket != generation) {
                        return;
                    }
                    loading.set(false);
                    List<DlqRow> all = new ArrayList<>(page.rows());
                    all.addAll(rows);
                    int keep = Math.min(all.size(), MAX_ROWS);
                    if (keep < all.size()) {
                        hasNext.set(true);
                    }
                    rows.setAll(all.subList(0, keep));
                    hasPrevious.set(page.hasMore());
                    noteSize();
                }, this::failed);
    }

    private void noteSize() {
        mostRowsHeld.set(Math.max(mostRowsHeld.get(), rows.size()));
    }

    /** Reads new DLQ events in the background and counts those the applied filter matches. */
    public void pollLive() {
        if (polling) {
            return;
        }
        polling = true;
        long ticket = generation;
        DlqFilter filter = appliedFilter.get();
        executor.submit("Reading new DLQ events", () -> arrivedMatching(filter), matching -> {
            polling = false;
            // A reload since the poll began shows the newest entries anyway and forgets what was new.
            if (ticket == generation && unseen.addAll(matching)) {
                showCount();
                if (order.get() == DlqOrder.OLDEST_FIRST && !rows.isEmpty() && !grouped.get()) {
                    // Oldest first, new entries lie past the last row: scrolling down reaches them, the list stays put.
                    // An operator already at the bottom gets them appended as if they had scrolled.
                    hasNext.set(true);
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

    /** The ids of the entries announced since the last poll that the filter matches, in the order they arrived. */
    private List<Long> arrivedMatching(DlqFilter filter) {
        List<Long> arrived = live.poll().stream().map(DlqEvent::dlqEntryId).toList();
        Set<Long> matching = queries.matching(filter, arrived);
        return arrived.stream().filter(matching::contains).toList();
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
        Set<Long> arrived = Set.copyOf(unseen);
        forgetNew();
        loading.set(true);
        executor.submit("Loading the newest DLQ entries", () -> queries.firstPage(filter, DlqOrder.NEWEST_FIRST, PAGE_SIZE),
                page -> {
                    if (ticket == generation) {
                        loading.set(false);
                        List<DlqRow> oldestFirst = new ArrayList<>(page.rows());
                        Collections.reverse(oldestFirst);
                        rows.setAll(oldestFirst);
                        hasNext.set(false);
                        hasPrevious.set(page.hasNext());
                        noteSize();
                        // With more new entries than a page, the first of them is not on it: then the newest row.
                        rows.stream().filter(row -> arrived.contains(row.id())).findFirst()
                                .or(() -> rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(rows.size() - 1)))
                                .ifPresent(firstNew::set);
                    }
                }, this::failed);
    }

    /** Counts the new entries among the rows the table shows as seen. */
    private void countDownShown(int first, int last) {
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

    private void showCount() {
        newCount.set(unseen.size());
        newText.set(unseen.isEmpty() ? "" : unseen.size() + " new");
    }

    private void forgetNew() {
        unseen.clear();
        showCount();
        firstNew.set(null);
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
                replaceInPlace(fresh);
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
            refreshRows(rows.stream().map(DlqRow::id).toList(), () -> { });
        }
    }

    private void replaceInPlace(List<DlqRow> fresh) {
        Map<Long, DlqRow> byId = fresh.stream().collect(Collectors.toMap(DlqRow::id, row -> row));
        List<Long> selectedIds = selection.stream().map(DlqRow::id).toList();
        Long currentId = current.get() == null ? null : current.get().id();
        for (int i = 0; i < rows.size(); i++) {
            DlqRow now = byId.get(rows.get(i).id());
            if (now != null) {
                rows.set(i, now);
            }
        }
        // A table drops the selection of a replaced row: ask the view to select the same entries again, current last.
        List<DlqRow> again = new ArrayList<>(rows.stream().filter(row -> selectedIds.contains(row.id())
                && !Long.valueOf(row.id()).equals(currentId)).toList());
        rows.stream().filter(row -> Long.valueOf(row.id()).equals(currentId)).findFirst().ifPresent(again::add);
        reselect.set(List.copyOf(again));
    }

    /** The table's selection, in table order; the last selected row is the one the detail pane shows. */
    public void select(List<DlqRow> selected, DlqRow focused) {
        selection.setAll(selected);
        current.set(focused);
    }

    /** Now, by the model's clock: what "3 min ago" is counted from. */
    public java.time.Instant now() { return clock.instant(); }

    public ObjectProperty<FailureClass> errorClassProperty() { return errorClass; }
    public StringProperty toolProperty() { return tool; }
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

    public StringProperty runIdProperty() { return runId; }
    public StringProperty traceIdProperty() { return traceId; }
    public ObjectProperty<TimeRange> timeRangeProperty() { return timeRange; }
    public ObjectProperty<SideEffectState> sideEffectProperty() { return sideEffect; }
    public ObjectProperty<DecisionState> decisionStateProperty() { return decisionState; }
    public StringProperty textProperty() { return text; }
    public ReadOnlyObjectProperty<FingerprintGroup> openGroupProperty() { return openGroup.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty groupedProperty() { return grouped.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<DlqOrder> orderProperty() { return order.getReadOnlyProperty(); }
    public ObservableList<DlqRow> rows() { return readOnlyRows; }
    public ObservableList<FingerprintGroup> groups() { return readOnlyGroups; }
    public ObservableList<DlqRow> selection() { return readOnlySelection; }
    public ReadOnlyObjectProperty<DlqRow> currentProperty() { return current.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<DlqFilter> appliedFilterProperty() { return appliedFilter.getReadOnlyProperty(); }
    public ReadOnlyStringProperty countTextProperty() { return countText.getReadOnlyProperty(); }
    public ReadOnlyStringProperty filterErrorProperty() { return filterError.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty newCountProperty() { return newCount.getReadOnlyProperty(); }
    public ReadOnlyStringProperty newTextProperty() { return newText.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty loadingProperty() { return loading.getReadOnlyProperty(); }
    /** Whether rows exist after the window in the current order (older newest-first, newer oldest-first). */
    public ReadOnlyBooleanProperty hasNextProperty() { return hasNext.getReadOnlyProperty(); }
    /** Whether rows exist before the window in the current order. */
    public ReadOnlyBooleanProperty hasPreviousProperty() { return hasPrevious.getReadOnlyProperty(); }
    /** After "Show new": the first new entry in the table's order, which the table brings into view; else null. */
    public ReadOnlyObjectProperty<DlqRow> firstNewProperty() { return firstNew.getReadOnlyProperty(); }
    /** Rows the table should select again after they were read anew in place, the current one last. */
    public ReadOnlyObjectProperty<List<DlqRow>> reselectProperty() { return reselect.getReadOnlyProperty(); }
    /** The most rows the window has held at once since it was created: proof that paging stays bounded. */
    public ReadOnlyIntegerProperty mostRowsHeldProperty() { return mostRowsHeld.getReadOnlyProperty(); }
}
