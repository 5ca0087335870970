package dev.redrive.console.ui;

import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * Tab in a multi-line field moves to the next control (Shift+Tab to the one before) instead of typing a tab: a reason
 * or a payload is never meant to hold one, and an operator tabbing through a form was stuck in the field.
 */
public final class TabMovesFocus {
    private TabMovesFocus() {
    }

    public static void install(TextArea... areas) {
        for (TextArea area : areas) {
            area.addEventFilter(KeyEvent.KEY_PRESSED, event -> {
                if (event.getCode() == KeyCode.TAB && !event.isControlDown() && !event.isAltDown()
                        && !event.isMetaDown()) {
                    event.consume();
                    // A text area traverses focus on Ctrl+Tab: the same key with Ctrl moves on, in either direction.
                    area.fireEvent(new KeyEvent(event.getSource(), event.getTarget(), KeyEvent.KEY_PRESSED,
                            event.getCharacter(), event.getText(), KeyCode.TAB, event.isShiftDown(), true, false, false));
                }
            });
        }
    }
}
