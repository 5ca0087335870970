package dev.redrive.console.profile;

import dev.redrive.console.OwnerWindow;
import dev.redrive.console.ui.Theme;
import javafx.scene.control.Button;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.NodeQueryUtils;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Without an OS keychain the profiles editor asks for the master password in a dialog the first time a remembered
 * password is read, refuses a wrong one in the dialog, and does not ask again in the same session.
 */
@ExtendWith(ApplicationExtension.class)
class MasterPasswordDialogTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    @RegisterExtension
    final OwnerWindow owner = new OwnerWindow(1280, 800);

    @Test
    void theMasterPasswordIsAskedOnceInADialog_andAWrongOneIsRefusedThere(FxRobot robot) {
        ProfileStore store = new ProfileStore(directory);
        for (String name : new String[]{"prod", "staging"}) {
            store.save(new ConnectionProfile(name, "jdbc:postgresql://db:5432/app", "triage", "redis://cache:6379",
                    "payments", false, "", ""));
        }
        EncryptedFileVault earlierSession = new EncryptedFileVault(directory, ScriptedMasterPassword.answering("correct horse"));
        earlierSession.remember("staging", "s3cret-pw");
        earlierSession.remember("prod", "pr0d-pw");
        EncryptedFileVault vault = new EncryptedFileVault(directory,
                new MasterPasswordDialog(owner.stage(), Theme.stylesheet()));
        ProfilesViewModel model = new ProfilesViewModel(store, vault, owner.executor(), (profile, password) -> { });
        robot.interact(() -> ProfilesView.show(new Dialog<>(), model, owner.stage(), Theme.stylesheet()));
        await().atMost(WAIT).until(() -> robot.lookup("staging  ·  payments").tryQuery().isPresent());

        robot.clickOn("staging  ·  payments");
        awaitShown(robot, "#masterPassword");
        robot.clickOn("#masterPassword").write("battery staple");
        clickOk(robot);
        awaitShown(robot, "#masterPasswordProblem");
        assertThat(robot.lookup("#masterPasswordProblem").queryAs(Label.class).getText())
                .isEqualTo("wrong master password for " + directory.resolve("passwords.p12")
                        + "; expected the one chosen when the first password was remembered");
        robot.clickOn("#masterPassword").write("correct horse");
        clickOk(robot);

        TextField password = robot.lookup("#profilePassword").queryAs(TextField.class);
        await().atMost(WAIT).until(() -> "s3cret-pw".equals(password.getText()));
        robot.clickOn("prod  ·  payments");
        await().atMost(WAIT).until(() -> "pr0d-pw".equals(password.getText()));
        assertThat(robot.lookup("#masterPassword").tryQuery()).as("asked once per session").isEmpty();
    }

    /** showAndWait is posted: the dialog's nodes exist a moment before its window shows them. */
    private static void awaitShown(FxRobot robot, String query) {
        await().atMost(WAIT).until(() -> robot.lookup(query).match(NodeQueryUtils.isVisible()).tryQuery().isPresent());
    }

    private static void clickOk(FxRobot robot) {
        robot.clickOn(robot.lookup(".dialog-pane .button").match((Button button) -> "OK".equals(button.getText()))
                .queryButton());
    }
}
