package dev.redrive.console.profile;

import dev.redrive.console.OwnerWindow;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.ui.Truncations;
import dev.redrive.testing.TestNamespace;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.Dialog;
import javafx.scene.control.ListView;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The connection profiles dialog over a console on the smallest screen it is made for (1280x800). */
@ExtendWith(ApplicationExtension.class)
class ProfilesViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path directory;

    @RegisterExtension
    final OwnerWindow owner = new OwnerWindow(1280, 800);

    @Test
    void everyButtonAndLabelShowsItsWholeTextBeforeAndAfterAConnectionTest(FxRobot robot) throws Exception {
        ProfilesViewModel model = new ProfilesViewModel(new ProfileStore(directory), new EncryptedFileVault(directory, ScriptedMasterPassword.answering()),
                owner.executor(), (profile, password) -> { });
        robot.interact(() -> ProfilesView.show(new Dialog<>(), model, owner.stage(), Theme.stylesheet()));
        Window dialog = robot.window("Connection profiles");
        await().atMost(WAIT).until(() -> robot.lookup("#deleteProfile").tryQuery().isPresent());

        assertThat(Truncations.under(dialog.getScene().getRoot())).isEmpty();
        assertThat(dialog.getWidth()).isBetween(860.0, 1280.0);
        assertThat(robot.lookup("#newProfile").queryAs(ButtonBase.class).getWidth()).isGreaterThan(30);

        robot.interact(() -> {
            model.pgUrlProperty().set(ns.config().pgUrl());
            model.pgUserProperty().set(ns.config().pgUser());
            model.passwordProperty().set(ns.config().pgPassword());
            model.redisUriProperty().set("redis://127.0.0.1:1");
            model.namespaceProperty().set(ns.name());
        });
        robot.clickOn("#testConnection");
        await().atMost(WAIT).until(() -> robot.lookup("#checkList").queryAs(ListView.class).getItems().size() == 3);

        assertThat(robot.lookup("#profileMessage").queryLabeled().getText()).startsWith("Redis failed");
        assertThat(Truncations.under(dialog.getScene().getRoot())).isEmpty();
    }
}
