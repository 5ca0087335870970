package dev.redrive.console.profile;

import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.console.ui.DialogSize;
import dev.redrive.console.ui.FxmlView;
import dev.redrive.health.ConnectionCheck;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.stage.Window;

/** The connection profiles editor. */
public final class ProfilesView extends FxmlView<ProfilesViewModel> {
    @FXML private ListView<ConnectionProfile> profileList;
    @FXML private TextField nameField;
    @FXML private TextField pgUrlField;
    @FXML private TextField pgUserField;
    @FXML private PasswordField passwordField;
    @FXML private CheckBox rememberBox;
    @FXML private TextField redisField;
    @FXML private TextField namespaceField;
    @FXML private CheckBox tlsBox;
    @FXML private ComboBox<String> tlsVerifyBox;
    @FXML private TextField tlsCaField;
    @FXML private TextField tracerField;
    @FXML private TextField tracerSpanField;
    @FXML private TextField prometheusField;
    @FXML private TextField operatorField;
    @FXML private TextField lookupField;
    @FXML private Button testButton;
    @FXML private Label messageLabel;
    @FXML private ListView<ConnectionCheck.Step> checkList;

    public static ProfilesView load(ProfilesViewModel model) {
        return FxmlView.load("/console/profile/Profiles.fxml", model);
    }

    @Override
    protected void bind() {
        profileList.setItems(model.profiles());
        profileList.setCellFactory(list -> new ListCell<>() {
            @Override
            protected void updateItem(ConnectionProfile profile, boolean empty) {
                super.updateItem(profile, empty);
                setText(empty || profile == null ? null : profile.name() + "  ·  " + profile.namespace());
            }
        });
        profileList.getSelectionModel().selectedItemProperty().addListener((obs, was, now) -> model.select(now));
        nameField.textProperty().bindBidirectional(model.nameProperty());
        pgUrlField.textProperty().bindBidirectional(model.pgUrlProperty());
        pgUserField.textProperty().bindBidirectional(model.pgUserProperty());
        passwordField.textProperty().bindBidirectional(model.passwordProperty());
        rememberBox.selectedProperty().bindBidirectional(model.rememberPasswordProperty());
        redisField.textProperty().bindBidirectional(model.redisUriProperty());
        namespaceField.textProperty().bindBidirectional(model.namespaceProperty());
        tlsBox.selectedProperty().bindBidirectional(model.tlsProperty());
        tlsVerifyBox.getItems().setAll(ProfilesViewModel.tlsVerifyChoices());
        tlsVerifyBox.valueProperty().bindBidirectional(model.tlsVerifyProperty());
        tlsVerifyBox.disableProperty().bind(model.tlsProperty().not());
        tlsCaField.textProperty().bindBidirectional(model.tlsCaFileProperty());
        tlsCaField.disableProperty().bind(model.tlsProperty().not());
        tracerField.textProperty().bindBidirectional(model.tracerUrlTemplateProperty());
        tracerSpanField.textProperty().bindBidirectional(model.tracerSpanUrlTemplateProperty());
        prometheusField.textProperty().bindBidirectional(model.prometheusUrlProperty());
        operatorField.textProperty().bindBidirectional(model.operatorProperty());
        lookupField.textProperty().bindBidirectional(model.lookupEndpointsProperty());
        testButton.disableProperty().bind(model.checkingProperty());
        messageLabel.textProperty().bind(model.messageProperty());
        checkList.setItems(model.checkSteps());
        checkList.setCellFactory(list -> new ListCell<>() {
            @Override
            protected void updateItem(ConnectionCheck.Step step, boolean empty) {
                super.updateItem(step, empty);
                getStyleClass().removeAll("check-passed", "check-failed");
                if (empty || step == null) {
                    setText(null);
                    return;
                }
                setText((step.passed() ? "✔ " : "✘ ") + step.name() + ": " + step.detail());
                getStyleClass().add(step.passed() ? "check-passed" : "check-failed");
            }
        });
        model.reload();
    }

    @FXML private void newProfile() { model.newProfile(); }
    @FXML private void delete() { model.delete(); }
    @FXML private void save() { model.save(); }
    @FXML private void testConnection() { model.testConnection(); }
    @FXML private void connect() { model.connect(); }

    /**
     * Shows the editor in {@code dialog} over {@code owner}, as wide as the form needs (not the theme's 600 px);
     * {@code stylesheet} is the console's.
     */
    public static void show(Dialog<Void> dialog, ProfilesViewModel model, Window owner, String stylesheet) {
        DialogPlacement.over(dialog, owner);
        dialog.setTitle("Connection profiles");
        dialog.setResizable(true);
        dialog.getDialogPane().setContent(load(model).root());
        dialog.getDialogPane().getStylesheets().add(stylesheet);
        DialogSize.uncap(dialog.getDialogPane());
        dialog.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);
        dialog.show();
    }
}
