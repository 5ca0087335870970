package dev.redrive.console.ui;

import javafx.scene.Parent;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.stage.Window;

/**
 * A non-modal dialog over the main window holding a list the operator works in (requests, batches): resizable, in the
 * console's theme, closed with Close; its content is handed back when it closes, so it can be shown again.
 */
public final class ListDialog {
    private ListDialog() {
    }

    public static Dialog<Void> show(Window owner, String title, Parent content, DialogSize size, Runnable onHidden) {
        Dialog<Void> dialog = new Dialog<>();
        DialogPlacement.over(dialog, owner);
        dialog.setTitle(title);
        dialog.setResizable(true);
        dialog.getDialogPane().setContent(content);
        dialog.getDialogPane().getButtonTypes().setAll(ButtonType.CLOSE);
        dialog.getDialogPane().getStylesheets().add(Theme.stylesheet());
        DialogSize.over(owner, size).applyTo(dialog.getDialogPane());
        dialog.setOnHidden(event -> {
            onHidden.run();
            dialog.getDialogPane().setContent(null);
        });
        dialog.show();
        return dialog;
    }
}
