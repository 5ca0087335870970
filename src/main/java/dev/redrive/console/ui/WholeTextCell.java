package dev.redrive.console.ui;

import javafx.scene.control.TableCell;
import javafx.scene.control.Tooltip;

/** A text cell whose tooltip holds the whole value, for columns too narrow for their longest values. */
public final class WholeTextCell<S> extends TableCell<S, String> {
    private static final double TOOLTIP_WIDTH = 640;

    private final Tooltip tooltip = new Tooltip();

    /** With {@code wrap}, the text also wraps over as many lines as the column's width needs. */
    public WholeTextCell(boolean wrap) {
        setWrapText(wrap);
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(TOOLTIP_WIDTH);
    }

    @Override
    protected void updateItem(String text, boolean empty) {
        super.updateItem(text, empty);
        boolean blank = empty || text == null || text.isEmpty();
        setText(blank ? null : text);
        tooltip.setText(blank ? "" : text);
        setTooltip(blank ? null : tooltip);
    }
}
