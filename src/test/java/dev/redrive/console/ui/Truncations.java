package dev.redrive.console.ui;

import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Labeled;
import javafx.scene.text.Text;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds what an operator would see cut short: visible labels, buttons, check boxes and column headers whose drawn text
 * is not their whole text (the skin replaced the end with "..."). Table and list cells are left out: a long value in
 * a cell is cut on purpose and shown whole in its tooltip.
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
            collect(root, found);
            return found;
        }).get(10, TimeUnit.SECONDS);
    }

    private static void collect(Node node, List<String> found) {
        if (!node.isVisible() || node instanceof IndexedCell<?>) {
            return;
        }
        if (node instanceof Labeled labeled && labeled.getText() != null && !labeled.getText().isEmpty()) {
            String drawn = drawnText(labeled);
            if (drawn != null && !drawn.equals(labeled.getText())) {
                found.add(labeled.getText() + " → " + drawn);
            }
        }
        if (node instanceof Parent parent) {
            parent.getChildrenUnmodifiable().forEach(child -> collect(child, found));
        }
    }

    /** The text node the skin draws, which holds the shortened text when the control is too small. */
    private static String drawnText(Labeled labeled) {
        return labeled.getChildrenUnmodifiable().stream().filter(Text.class::isInstance).map(Text.class::cast)
                .map(Text::getText).findFirst().orElse(null);
    }
}
