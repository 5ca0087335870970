package dev.redrive.console.ui;

import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.control.TableColumn;

import java.util.function.Function;

/** A read-only text column of a list dialog, its whole value in the cell's tooltip. */
public final class TextColumn {
    private TextColumn() {
    }

    public static <S> TableColumn<S, String> of(String title, double width, Function<S, String> text) {
        TableColumn<S, String> column = new TableColumn<>(title);
        column.setPrefWidth(width);
        column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(text.apply(cell.getValue())));
        column.setCellFactory(c -> new WholeTextCell<>(false));
        return column;
    }
}
