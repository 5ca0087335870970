package dev.redrive.console;

import dev.redrive.config.UrlCredentials;
import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.main.MainWindowView;
import dev.redrive.console.main.MainWindowViewModel;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.main.WindowLayout;
import dev.redrive.console.profile.ConfigDirectory;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.console.profile.MasterPasswordDialog;
import dev.redrive.console.profile.PasswordVault;
import dev.redrive.console.profile.PasswordVaults;
import dev.redrive.console.profile.ProfileStore;
import dev.redrive.console.profile.ProfilesView;
import dev.redrive.console.profile.ProfilesViewModel;
import dev.redrive.console.profile.VaultLockedException;
import dev.redrive.console.ui.DesktopServices;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Dialog;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.prefs.Preferences;

/** The triage console's JavaFX application: wires the main window, profiles and the first connection. */
public final class ConsoleApp extends Application {
    private static final String PREFERENCES_NODE = "dev/redrive/console";

    private MainWindowView mainWindow;
    private UiExecutor executor;
    private Preferences preferences;
    private ProfileStore profiles;
    private PasswordVault vault;
    private Stage stage;

    @Override
    public void start(Stage primaryStage) {
        stage = primaryStage;
        preferences = Preferences.userRoot().node(PREFERENCES_NODE);
        Path configDirectory = ConfigDirectory.forCurrentUser();
        profiles = new ProfileStore(configDirectory);
        vault = PasswordVaults.open(configDirectory, new MasterPasswordDialog(primaryStage, Theme.stylesheet()));
        WindowLayout layout = MainWindowView.remembered(preferences);
        Theme.apply(layout.darkTheme());

        executor = UiExecutor.forFx(4);
        MainWindowViewModel model = new MainWindowViewModel(executor, Clock.systemUTC(),
                ConsoleLauncher.settings().discovery());
        mainWindow = MainWindowView.load(model, session -> new ConsoleScreens(session, executor, preferences,
                DesktopServices.of(getHostServices())));
        mainWindow.onOpenProfiles(() -> openProfiles(model));
        Scene scene = new Scene(mainWindow.root());
        scene.getStylesheets().add(Theme.stylesheet());
        stage.setTitle("Redrive");
        stage.setScene(scene);
        mainWindow.restore(stage, layout);
        stage.show();
        moveEarlierVersionsPasswords(model, configDirectory);
        connectAtStart(model, ConsoleLauncher.settings());
    }

    /** Before any remembered password is read, so that a profile finds its password in the vault it moved to. */
    private void moveEarlierVersionsPasswords(MainWindowViewModel model, Path configDirectory) {
        try {
            PasswordVaults.moveEarlierVersionsPasswords(configDirectory, vault);
        } catch (RuntimeException e) {
            model.showFailure(new UiExecutor.TaskFailure("Moving remembered passwords into " + vault.place(), e));
        }
    }

    private void connectAtStart(MainWindowViewModel model, ConsoleLauncher.LaunchSettings settings) {
        if (settings.profileName() == null) {
            ConnectionProfile environment;
            try {
                Map<String, String> endpoints = new HashMap<>(settings.lookupEndpoints());
                endpoints.putAll(ConnectionProfile.parseLookupEndpoints(System.getenv("REDRIVE_LOOKUP_ENDPOINTS")));
                // The status bar names the connection by this name: say when the sandbox runs on servers of its own.
                String name = !settings.demo() ? "environment" : settings.ownServers() ? "sandbox on its own servers"
                        : "demo";
                environment = ConnectionProfile.of(name, settings.config())
                        .withLookupEndpoints(endpoints);
            } catch (RuntimeException e) {
                model.showFailure(new UiExecutor.TaskFailure("Reading REDRIVE_LOOKUP_ENDPOINTS", e));
                environment = ConnectionProfile.of("environment", settings.config());
            }
            model.connect(environment, settings.config().pgPassword());
            return;
        }
        Optional<ConnectionProfile> profile;
        try {
            profile = profiles.find(settings.profileName());
        } catch (RuntimeException e) {
            model.showFailure(new UiExecutor.TaskFailure("Reading connection profiles", e));
            return;
        }
        if (profile.isEmpty()) {
            model.showFailure(new UiExecutor.TaskFailure("Opening profile " + settings.profileName(),
                    new IllegalArgumentException("no profile named '" + settings.profileName() + "' in " + profiles.file())));
            openProfiles(model);
            return;
        }
        Optional<String> password;
        try {
            password = vault.password(profile.get().name());
        } catch (VaultLockedException e) {
            password = Optional.empty();
        }
        if (password.isPresent()) {
            model.connect(profile.get(), password.get());
        } else {
            askPassword(profile.get()).ifPresent(secret -> model.connect(profile.get(), secret));
        }
    }

    private Optional<String> askPassword(ConnectionProfile profile) {
        PasswordField field = new PasswordField();
        CheckBox remember = new CheckBox("Remember in " + vault.place());
        Dialog<String> dialog = new Dialog<>();
        DialogPlacement.over(dialog, stage);
        dialog.setTitle("Connect to " + profile.name());
        dialog.getDialogPane().setContent(new VBox(8,
                new Label("PostgreSQL password for " + profile.pgUser() + " at " + UrlCredentials.mask(profile.pgUrl())),
                field, remember));
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        dialog.setResultConverter(button -> button == ButtonType.OK ? field.getText() : null);
        Optional<String> password = dialog.showAndWait();
        password.filter(secret -> remember.isSelected()).ifPresent(secret -> executor.submit(
                "Remembering the password of " + profile.name(), () -> {
                    vault.remember(profile.name(), secret);
                    return secret;
                }, saved -> { }));
        return password;
    }

    private void openProfiles(MainWindowViewModel model) {
        Dialog<Void> dialog = new Dialog<>();
        ProfilesViewModel profilesModel = new ProfilesViewModel(profiles, vault, executor, (profile, password) -> {
            model.connect(profile, password);
            dialog.close();
        });
        ProfilesView.show(dialog, profilesModel, stage, Theme.stylesheet());
    }

    @Override
    public void stop() {
        if (mainWindow != null) {
            mainWindow.saveLayout(stage, preferences);
            mainWindow.close();
        }
        if (executor != null) {
            executor.close();
        }
        if (vault != null) {
            vault.close();
        }
    }
}
