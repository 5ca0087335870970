package dev.redrive.console.dlq;

import dev.redrive.console.ui.ContentWidth;
import dev.redrive.console.ui.CountText;
import dev.redrive.console.ui.FailureClassText;
import dev.redrive.console.ui.RelativeTime;
import dev.redrive.console.ui.SideEffectBadge;
import dev.redrive.console.ui.TwoLineCell;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleLongProperty;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The columns of the entries and groups tables. Each row is two lines, so the list beside the detail pane shows the
 * error without scrolling sideways even at 1280 px: the short columns are as wide as their content, the last one
 * (operation and error, or the group's title) takes the rest, and tooltips hold the full names and exact times.
 */
final class DlqColumns {
    /** Two lines of text in the theme's font. */
    static final double ROW_HEIGHT = 46;
    private static final double BADGE_WIDTH = 112;
    private static final double LEAST_FLEXIBLE_WIDTH = 240;

    private final RelativeTime time;
    private final Supplier<Instant> now;
    /** Ticks whenever "3 min ago" should be counted again. */
    private final LongProperty clock = new SimpleLongProperty();

    DlqColumns(RelativeTime time, Supplier<Instant> now) {
        this.time = time;
        this.now = now;
    }

    /** The Entered column: sorting it asks the model for the other order. */
    TableColumn<DlqRow, DlqRow> entered() {
        TableColumn<DlqRow, DlqRow> column = TwoLineCell.column("Entered", row -> time.since(row.enteredAt(), now.get()),
                row -> row.decisionState().name(),
                row -> "entered the DLQ " + time.exact(row.enteredAt()) + "\ndecision: " + row.decisionState().name(), clock);
        column.setSortable(true);
        return column;
    }

    List<TableColumn<DlqRow, ?>> entries(TableColumn<DlqRow, DlqRow> entered) {
        TableColumn<DlqRow, SideEffectState> sideEffect = new TableColumn<>("Side effect");
        sideEffect.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue().sideEffect()));
        sideEffect.setCellFactory(c -> SideEffectBadge.tableCell());
        fixed(sideEffect, BADGE_WIDTH);
        TableColumn<DlqRow, DlqRow> failure = TwoLineCell.column("Class · tool",
                row -> FailureClassText.shortName(row.errorClass()), DlqRow::tool,
                row -> FailureClassText.explain(row.errorClass()) + "\ntool " + row.tool());
        TableColumn<DlqRow, DlqRow> attempt = TwoLineCell.column("Att.",
                row -> row.attempt() == null ? "" : String.valueOf(row.attempt()), row -> "",
                row -> row.attempt() == null ? "no attempt recorded" : "dead-lettered after attempt " + row.attempt());
        TableColumn<DlqRow, DlqRow> operation = TwoLineCell.column("Operation · error",
                DlqBrowserViewModel::operationText, row -> Objects.toString(row.errorMessage(), ""),
                row -> DlqBrowserViewModel.operationText(row) + "\n" + Objects.toString(row.errorMessage(), ""));
        operation.setMinWidth(LEAST_FLEXIBLE_WIDTH);
        TwoLineCell.shortenTopInTheMiddle(operation);
        List<TableColumn<DlqRow, ?>> columns = List.of(entered, sideEffect, failure, attempt, operation);
        columns.forEach(column -> column.setSortable(column == entered));
        return columns;
    }

    /** Redraws the relative times ("3 min ago") of the cells on screen. */
    void tick() {
        clock.set(clock.get() + 1);
    }

    /** Sizes the short columns of the entries table by the rows it holds. */
    void fitEntries(TableView<DlqRow> table, List<DlqRow> rows) {
        List<TableColumn<DlqRow, ?>> columns = table.getColumns();
        Instant at = now.get();
        fit(table, columns.get(0), rows, row -> Stream.of(time.since(row.enteredAt(), at), row.decisionState().name()));
        fit(table, columns.get(2), rows, row -> Stream.of(FailureClassText.shortName(row.errorClass()), row.tool()));
        fit(table, columns.get(3), rows, row -> Stream.of(row.attempt() == null ? "" : String.valueOf(row.attempt())));
    }

    List<TableColumn<FingerprintGroup, ?>> groups() {
        TableColumn<FingerprintGroup, FingerprintGroup> open = TwoLineCell.column("Open",
                group -> CountText.number(group.openCount()) + " open", group -> "of " + CountText.number(group.count()),
                group -> CountText.number(group.openCount()) + " of the group's " + CountText.of(group.count(), "entry",
                        "entries") + " wait for a decision");
        TableColumn<FingerprintGroup, FingerprintGroup> seen = TwoLineCell.column("Last seen",
                group -> time.since(group.lastSeen(), now.get()), group -> "first " + time.since(group.firstSeen(), now.get()),
                group -> "last seen " + time.exact(group.lastSeen()) + "\nfirst seen " + time.exact(group.firstSeen()), clock);
        TableColumn<FingerprintGroup, FingerprintGroup> title = TwoLineCell.column("Group", DlqColumns::title,
                group -> "fingerprint " + group.fingerprint(),
                group -> title(group) + "\nfingerprint " + group.fingerprint());
        title.setMinWidth(LEAST_FLEXIBLE_WIDTH);
        List<TableColumn<FingerprintGroup, ?>> columns = List.of(open, seen, title);
        columns.forEach(column -> column.setSortable(false));
        return columns;
    }

    void fitGroups(TableView<FingerprintGroup> table, List<FingerprintGroup> groups) {
        Instant at = now.get();
        fit(table, table.getColumns().get(0), groups, group -> Stream.of(group.openCount() + " open", "of " + group.count()));
        fit(table, table.getColumns().get(1), groups, group -> Stream.of(time.since(group.lastSeen(), at),
                "first " + time.since(group.firstSeen(), at)));
    }

    /** What a group is about, in words: tool · failure classes · the normalized message. */
    static String title(FingerprintGroup group) {
        String classes = group.classes().stream().map(FailureClassText::shortName).collect(Collectors.joining(", "));
        return group.tool() + " · " + classes + " · " + group.sampleMessage();
    }

    /** A short label for the open group: tool and classes, the whole title in its tooltip. */
    static String shortTitle(FingerprintGroup group) {
        return group.tool() + " · " + group.classes().stream().map(FailureClass::name).collect(Collectors.joining(", "))
                + " · " + CountText.of(group.count(), "entry", "entries");
    }

    private static <S> void fit(TableView<S> table, TableColumn<S, ?> column, List<S> rows, Function<S, Stream<String>> texts) {
        ContentWidth.fit(table, column, rows.stream().flatMap(texts).toList(), 0);
    }

    private static void fixed(TableColumn<?, ?> column, double width) {
        column.setMinWidth(width);
        column.setPrefWidth(width);
        column.setMaxWidth(width);
    }
}
