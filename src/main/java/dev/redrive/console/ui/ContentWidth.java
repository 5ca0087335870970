package dev.redrive.console.ui;

import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.Group;
import javafx.scene.Scene;

import java.util.Collection;

/**
 * Sizes a table column by what it shows: the widest of its values in the table's own font and of its header in bold
 * (with its sort arrow), plus the cell padding, and never narrower. Columns sized this way are never cut; a free-text column set to take the rest of the
 * width gets what they leave.
 */
public final class ContentWidth {
    /** The theme's cell padding on both sides, and a little slack for the skin's rounding. */
    private static final double PADDING = 20;
    /** Room a header keeps for its sort arrow. */
    private static final double SORT_ARROW = 18;

    private ContentWidth() {
    }

    public static void fit(TableView<?> table, TableColumn<?, ?> column, Collection<String> values, double extra) {
        Label probe = probe(table);
        double widest = 0;
        for (String value : values) {
            widest = Math.max(widest, measure(probe, value));
        }
        probe.setStyle("-fx-font-weight: bold;");
        probe.applyCss();
        widest = Math.max(widest, measure(probe, column.getText()) + (column.isSortable() ? SORT_ARROW : 0));
        double width = Math.ceil(widest + PADDING + extra);
        column.setMinWidth(width);
        column.setPrefWidth(width);
        column.setMaxWidth(width);
    }

    private static double measure(Label probe, String text) {
        probe.setText(text == null ? "" : text);
        return probe.prefWidth(-1);
    }

    /** A label styled as the table's cells are (the theme and the table's stylesheets), measured off screen. */
    private static Label probe(TableView<?> table) {
        Label probe = new Label();
        Scene scene = new Scene(new Group(probe));
        if (table.getScene() != null) {
            scene.getStylesheets().setAll(table.getScene().getStylesheets());
        }
        probe.applyCss();
        return probe;
    }
}
