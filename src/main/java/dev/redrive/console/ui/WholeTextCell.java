package dev.redrive.console.ui;

import javafx.scene.control.TableCell;
import javafx.scene.control.Tooltip;

/** A text cell whose tooltip holds the whole value, for columns too narrow for their longest values. */
public final class WholeTextCell<S> extends TableCell<S, String> {

    /** With {@code wrap}, the text also wraps over as many lines as the column's width needs. */
    public WholeTextCell(boolean wrap) {
        setWrapText(wrap);
    }

    @Override
    protected void updateItem(String text, boolean empty) {
        super.updateItem(text, empty);
        setText(empty ? null : text);
        setTooltip(empty || text == null || text.isEmpty() ? null : new Tooltip(text));
    }
}
