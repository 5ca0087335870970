package dev.redrive.console.ui;

import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.DialogEvent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;

/**
 * A dialog's button that decides (discard, resolve, redrive a group) is pressed by a click or Ctrl+Enter only: as a
 * default button it was pressed by Enter typed in any of the dialog's fields, the operator's name for one. The focus
 * starts in the dialog's first field, never on the button.
 */
public final class ActButton {
    /** The key that presses an act's button on purpose. */
    public static final KeyCombination ISSUE = new KeyCodeCombination(KeyCode.ENTER, KeyCombination.SHORTCUT_DOWN);

    private ActButton() {
    }

    public static void arm(Dialog<?> dialog, ButtonType act, Node first) {
        Button button = (Button) dialog.getDialogPane().lookupButton(act);
        button.setDefaultButton(false);
        dialog.getDialogPane().addEventFilter(KeyEvent.KEY_PRESSED, event -> {
            if (ISSUE.match(event)) {
                event.consume();
                if (!button.isDisabled()) {
                    button.fire();
                }
            }
        });
        dialog.addEventHandler(DialogEvent.DIALOG_SHOWN, event -> Platform.runLater(first::requestFocus));
    }
}
