package dev.redrive.console.ui;

import javafx.scene.control.Spinner;

/**
 * Makes a number spinner take typing: an editable spinner keeps what was typed uncommitted until Enter, so a value
 * typed and followed by a click on a button was silently the old one. Here leaving the field commits it, and text that
 * is no number puts the current value back.
 */
public final class TypedSpinner {
    private TypedSpinner() {
    }

    public static <T> Spinner<T> editable(Spinner<T> spinner) {
        spinner.setEditable(true);
        spinner.focusedProperty().addListener((obs, was, focused) -> {
            if (!focused) {
                commit(spinner);
            }
        });
        return spinner;
    }

    /** Takes what the field says now, as leaving it would. */
    public static <T> void commit(Spinner<T> spinner) {
        try {
            spinner.commitValue();
        } catch (RuntimeException notANumber) {
            spinner.cancelEdit();
        }
    }
}
