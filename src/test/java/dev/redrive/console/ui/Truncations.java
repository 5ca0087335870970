package dev.redrive.console.ui;

import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Control;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tooltip;
import javafx.scene.text.Text;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds what an operator would see cut short: visible labels, buttons, check boxes, column headers and table or list
 * cells whose drawn text is not their whole text (the skin replaced the end with "..."). Inside a cell, a text may be
 * shortened only when a tooltip of the cell (or of the text itself) holds it whole, as free-text columns do.
 */
public final class Truncations {
    private Truncations() {
    }

    /**
     * "text → drawn text" for every truncated control under {@code root}, once it is laid out for its current texts;
     * empty when nothing is cut. Runs on the FX thread.
     */
    public static List<String> under(Parent root) throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> {
            root.applyCss();
            root.layout();
            List<String> found = new ArrayList<>();
            collect(root, null, found);
            return found;
        }).get(10, TimeUnit.SECONDS);
    }

    private static void collect(Node node, IndexedCell<?> cell, List<String> found) {
        if (!node.isVisible()) {
            return;
        }
        IndexedCell<?> inside = node instanceof IndexedCell<?> indexed ? indexed : cell;
        if (inside != null && inside.isEmpty()) {
            return;
        }
        if (node instanceof Labeled labeled && labeled.getText() != null && !labeled.getText().isEmpty()) {
            String drawn = drawnText(labeled);
            if (drawn != null && !drawn.equals(labeled.getText()) && !wholeInTooltip(labeled, inside)) {
                found.add(labeled.getText() + " → " + drawn);
            }
        }
        if (node instanceof Parent parent) {
            parent.getChildrenUnmodifiable().forEach(child -> collect(child, inside, found));
        }
    }

    /** Whether a shortened text in a cell can still be read whole: in its own tooltip or its cell's. */
    private static boolean wholeInTooltip(Labeled labeled, IndexedCell<?> cell) {
        if (cell == null) {
            return false;
        }
        for (Control control : List.of(labeled, cell)) {
            Tooltip tooltip = control.getTooltip();
            if (tooltip != null && tooltip.getText() != null && tooltip.getText().contains(labeled.getText())) {
                return true;
            }
        }
        return false;
    }

    /** The text node the skin draws, which holds the shortened text when the control is too small. */
    private static String drawnText(Labeled labeled) {
        return labeled.getChildrenUnmodifiable().stream().filter(Text.class::isInstance).map(Text.class::cast)
                .map(Text::getText).findFirst().orElse(null);
    }
}
