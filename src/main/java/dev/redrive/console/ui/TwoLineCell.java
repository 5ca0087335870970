package dev.redrive.console.ui;

import javafx.beans.InvalidationListener;
import javafx.beans.Observable;
import javafx.beans.WeakInvalidationListener;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleLongProperty;
import javafx.scene.control.Label;
import javafx.scene.control.OverrunStyle;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;
import javafx.util.Callback;

import java.util.function.Function;

/**
 * A table cell of two lines about its row: what an operator scans on top, its context below in a quieter style. A
 * row carries more this way than a column per field would fit across a list beside the detail pane. The tooltip holds
 * the whole text of both lines (and more), so a free-text line may be shortened with "…" and still be read.
 */
public final class TwoLineCell<S> extends TableCell<S, S> {
    private static final double TOOLTIP_WIDTH = 640;

    private final Function<S, String> top;
    private final Function<S, String> bottom;
    private final Function<S, String> whole;
    private final Label topLabel = new Label();
    private final Label bottomLabel = new Label();
    private final VBox lines = new VBox(topLabel, bottomLabel);
    private final Tooltip tooltip = new Tooltip();

    /** Held so that the weak listener on the clock lives as long as the cell. */
    private final InvalidationListener redraw = clock -> show(getItem());

    private TwoLineCell(Function<S, String> top, Function<S, String> bottom, Function<S, String> whole, Observable clock) {
        this.top = top;
        this.bottom = bottom;
        this.whole = whole;
        clock.addListener(new WeakInvalidationListener(redraw));
        getStyleClass().add("two-line-cell");
        topLabel.getStyleClass().add("cell-top");
        bottomLabel.getStyleClass().add("cell-bottom");
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(TOOLTIP_WIDTH);
    }

    /**
     * A column of such cells.
     *
     * @param whole the tooltip: the row's whole story for this column; it must contain both lines' texts when either
     *              can be too long for the column
     */
    public static <S> TableColumn<S, S> column(String title, Function<S, String> top, Function<S, String> bottom,
                                               Function<S, String> whole) {
        return column(title, top, bottom, whole, new SimpleLongProperty());
    }

    /**
     * A column whose texts depend on the time ("3 min ago"): each change of {@code clock} redraws the cells' texts in
     * place (no new cells, so the rows an operator points at stay put).
     */
    public static <S> TableColumn<S, S> column(String title, Function<S, String> top, Function<S, String> bottom,
                                               Function<S, String> whole, Observable clock) {
        TableColumn<S, S> column = new TableColumn<>(title);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        column.setCellFactory(c -> new TwoLineCell<>(top, bottom, whole, clock));
        return column;
    }

    /**
     * Shortens the top line of the column's cells in its middle rather than at its end: for identifiers whose end
     * tells rows apart ("fulfilment-2026…ship-10221:0" instead of "fulfilment-20261201:ship-102…").
     */
    public static <S> void shortenTopInTheMiddle(TableColumn<S, S> column) {
        Callback<TableColumn<S, S>, TableCell<S, S>> cells = column.getCellFactory();
        column.setCellFactory(c -> {
            TableCell<S, S> cell = cells.call(c);
            ((TwoLineCell<S>) cell).topLabel.setTextOverrun(OverrunStyle.CENTER_ELLIPSIS);
            return cell;
        });
    }

    @Override
    protected void updateItem(S item, boolean empty) {
        super.updateItem(item, empty);
        setText(null);
        show(empty ? null : item);
    }

    private void show(S item) {
        if (item == null) {
            setGraphic(null);
            setTooltip(null);
            return;
        }
        topLabel.setText(top.apply(item));
        bottomLabel.setText(bottom.apply(item));
        tooltip.setText(whole.apply(item));
        setGraphic(lines);
        setTooltip(tooltip);
    }
}
