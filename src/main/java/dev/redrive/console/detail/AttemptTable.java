package dev.redrive.console.detail;

import dev.redrive.console.ui.WholeTextCell;
import dev.redrive.health.Durations;
import dev.redrive.triage.detail.AttemptRecord;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;

import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The "errors per attempt" table. The detail pane is about 570 px wide in the default window, too narrow for a column
 * per field: the columns are the ones an operator scans (the short ones never narrower than their header), the error
 * takes the rest of the width and wraps, and a row's tooltip holds every field, consumer and Retry-After included.
 * The least widths leave room around the headers in the theme's 14 px font (OperationDetailViewTest checks them).
 */
final class AttemptTable {
    private final DateTimeFormatter time;

    private AttemptTable(DateTimeFormatter time) {
        this.time = time;
    }

    static void setUp(TableView<AttemptRecord> table, DateTimeFormatter time) {
        new AttemptTable(time).fill(table);
    }

    private void fill(TableView<AttemptRecord> table) {
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().setAll(List.of(
                column("#", 36, 40, a -> String.valueOf(a.attempt())),
                column("Outcome", 100, 140, AttemptRecord::outcome),
                column("Class · code", 124, 230, AttemptTable::classAndCode),
                column("Started", 88, 170, a -> time.format(a.startedAt())),
                column("Took", 60, 64, AttemptTable::took),
                errorColumn()));
        table.getColumns().forEach(c -> c.setSortable(false));
        table.setRowFactory(view -> new TableRow<>() {
            @Override
            protected void updateItem(AttemptRecord attempt, boolean empty) {
                super.updateItem(attempt, empty);
                setTooltip(empty || attempt == null ? null : new Tooltip(describe(attempt)));
            }
        });
    }

    private static TableColumn<AttemptRecord, String> column(String title, double least, double wanted,
                                                             Function<AttemptRecord, String> value) {
        TableColumn<AttemptRecord, String> column = new TableColumn<>(title);
        column.setMinWidth(least);
        column.setPrefWidth(wanted);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        return column;
    }

    /**
     * The normalized error, wrapped over as many lines as it needs. It only asks for its least width: as the last
     * column it gets whatever the others leave, and they keep their wanted widths as long as that is enough.
     */
    private static TableColumn<AttemptRecord, String> errorColumn() {
        TableColumn<AttemptRecord, String> column = column("Error", 160, 160, a -> Objects.toString(a.errorMessage(), ""));
        column.setCellFactory(c -> new WholeTextCell<>(true));
        return column;
    }

    private static String classAndCode(AttemptRecord attempt) {
        return Stream.of(attempt.errorClass() == null ? null : attempt.errorClass().name(), attempt.errorCode())
                .filter(Objects::nonNull).collect(Collectors.joining(" · "));
    }

    private static String took(AttemptRecord attempt) {
        return attempt.finishedAt() == null ? "" : Durations.human(Duration.between(attempt.startedAt(), attempt.finishedAt()));
    }

    private String describe(AttemptRecord attempt) {
        return Stream.of(
                        "attempt " + attempt.attempt() + " · " + attempt.outcome(),
                        classAndCode(attempt),
                        "started " + time.format(attempt.startedAt())
                                + (attempt.finishedAt() == null ? "" : " · took " + took(attempt)),
                        attempt.retryAfterMs() == null ? null
                                : "Retry-After " + Durations.human(Duration.ofMillis(attempt.retryAfterMs())),
                        attempt.consumer() == null ? null : "consumer " + attempt.consumer(),
                        attempt.errorMessage())
                .filter(line -> line != null && !line.isEmpty()).collect(Collectors.joining("\n"));
    }
}
