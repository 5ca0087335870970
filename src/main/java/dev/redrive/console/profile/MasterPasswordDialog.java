package dev.redrive.console.profile;

import dev.redrive.console.ui.DialogPlacement;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Asks for the master password in a modal dialog over the console; from a background thread it shows the dialog on
 * the FX thread and waits for the answer. Choosing a new one asks for it twice.
 */
public final class MasterPasswordDialog implements MasterPasswordPrompt {
    private final Window owner;
    private final String stylesheet;

    public MasterPasswordDialog(Window owner, String stylesheet) {
        this.owner = owner;
        this.stylesheet = stylesheet;
    }

    @Override
    public Optional<char[]> ask(boolean creating, String problem) {
        if (Platform.isFxApplicationThread()) {
            return show(creating, problem);
        }
        FutureTask<Optional<char[]>> shown = new FutureTask<>(() -> show(creating, problem));
        Platform.runLater(shown);
        try {
            return shown.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the master password dialog failed", e.getCause());
        }
    }

    private Optional<char[]> show(boolean creating, String problem) {
        PasswordField password = new PasswordField();
        password.setId("masterPassword");
        PasswordField confirmation = new PasswordField();
        confirmation.setId("masterPasswordConfirmation");
        Label explanation = new Label(creating
                ? "No OS keychain answers in this session, so remembered passwords are kept in a file encrypted with "
                + "a master password. Choose it (asked once per console session; it cannot be recovered):"
                : "The master password unlocks the remembered passwords (asked once per console session):");
        explanation.setWrapText(true);
        Label refusal = new Label(problem);
        refusal.setId("masterPasswordProblem");
        refusal.getStyleClass().add("danger");
        refusal.setWrapText(true);
        refusal.setVisible(!problem.isBlank());
        refusal.setManaged(!problem.isBlank());

        Dialog<char[]> dialog = new Dialog<>();
        DialogPlacement.over(dialog, owner);
        dialog.setTitle(creating ? "Choose a master password" : "Master password");
        dialog.getDialogPane().getStylesheets().add(stylesheet);
        dialog.getDialogPane().setPrefWidth(460);
        VBox content = new VBox(8, explanation, refusal, password);
        if (creating) {
            content.getChildren().addAll(new Label("Again:"), confirmation);
        }
        dialog.getDialogPane().setContent(content);
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        Node ok = dialog.getDialogPane().lookupButton(ButtonType.OK);
        ok.disableProperty().bind(password.textProperty().isEmpty()
                .or(creating ? password.textProperty().isNotEqualTo(confirmation.textProperty())
                        : password.textProperty().isEmpty()));
        dialog.setResultConverter(button -> button == ButtonType.OK ? password.getText().toCharArray() : null);
        Platform.runLater(password::requestFocus);
        return dialog.showAndWait();
    }
}
