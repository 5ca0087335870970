package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.main.MainWindowView;
import dev.redrive.console.main.MainWindowViewModel;
import dev.redrive.services.ToolEndpointDiscovery;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.main.WindowLayout;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.triage.query.DlqRow;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.control.TableView;
import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import javax.imageio.ImageIO;
import java.io.File;
import java.time.Clock;
import java.util.List;
import java.util.prefs.Preferences;

import static dev.redrive.console.ScreensFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

@ExtendWith(ApplicationExtension.class)
class MainWindowTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ScreensFixture onStage = new ScreensFixture(ns, "console-test-main");

    private UiExecutor executor;
    private MainWindowViewModel model;
    private MainWindowView view;
    private Stage stage;

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(120, "main");
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
        Theme.apply(false);
        executor = UiExecutor.forFx(2);
        model = new MainWindowViewModel(executor, Clock.systemUTC(), ToolEndpointDiscovery.NONE);
        view = MainWindowView.load(model, session -> new ConsoleScreens(session, executor, onStage.preferences(), new RecordingDesktop()));
        ThemedStage.show(stage, view.root(), 1260, 780);
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(view::close);
        executor.close();
    }

    @Test
    void aServerThatIsNotThereIsNamedInTheStatusBarAndTheWindowStaysUsable(FxRobot robot) {
        ConnectionProfile broken = new ConnectionProfile("broken", ns.config().pgUrl(), ns.config().pgUser(),
                "redis://127.0.0.1:1", ns.name(), false, "", "");

        robot.interact(() -> model.connect(broken, ns.config().pgPassword()));

        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#errorLabel").queryLabeled().getText())
                .startsWith("Connecting to broken failed: Redis at redis://127.0.0.1:1 is not reachable"));
        assertThat(robot.lookup("#errorBox").query().isVisible()).isTrue();
        assertThat(robot.lookup("#statusLabel").queryLabeled().getText()).isEqualTo("Not connected");
        robot.clickOn("#darkSwitch");
        assertThat(model.darkThemeProperty().get()).isTrue();
    }

    @Test
    void connectingShowsTheDlqAndTheLayoutIsRemembered(FxRobot robot) throws Exception {
        robot.interact(() -> model.connect(ConnectionProfile.of("local", ns.config()), ns.config().pgPassword()));

        TableView<DlqRow> table = await().atMost(WAIT).until(
                () -> robot.lookup("#dlqTable").tryQuery().map(node -> (TableView<DlqRow>) node).orElse(null),
                found -> found != null && !found.getItems().isEmpty());
        assertThat(table.getItems()).hasSize(100);
        assertThat(robot.lookup("#connectionLabel").queryLabeled().getText()).startsWith("local · namespace " + ns.name());
        await().atMost(WAIT).untilAsserted(() -> assertThat(robot.lookup("#healthDlqOpen").queryLabeled().getText())
                .isEqualTo(String.valueOf(ns.database().jdbc().queryLong(
                        "SELECT count(*) FROM dlq_entries WHERE decision_state = 'OPEN'"))));

        robot.interact(() -> view.saveLayout(stage, onStage.preferences()));
        WindowLayout remembered = MainWindowView.remembered(onStage.preferences());
        assertThat(remembered.width()).isEqualTo(stage.getWidth());
        assertThat(remembered.darkTheme()).isEqualTo(model.darkThemeProperty().get());

        File shot = new File("target/console-main-window.png");
        robot.interact(() -> {
            try {
                ImageIO.write(SwingFXUtils.fromFXImage(view.root().snapshot(null, null), null), "png", shot);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Test
    void aFirstStartFillsTheScreensWorkAreaCentred_andTheNextStartIsWhereTheWindowWasLeft(FxRobot robot)
            throws Exception {
        Preferences fresh = Preferences.userRoot().node("dev/redrive/console-test-main-first-start");
        try {
            Rectangle2D screen = Screen.getPrimary().getVisualBounds();
            robot.interact(() -> view.restore(stage, MainWindowView.remembered(fresh)));

            assertThat(stage.getWidth()).isEqualTo(Math.min(screen.getWidth(), Math.max(1280, screen.getWidth() * 0.9)));
            assertThat(stage.getHeight()).isEqualTo(Math.min(screen.getHeight(), Math.max(800, screen.getHeight() * 0.9)));
            assertThat(stage.getX() + stage.getWidth() / 2).isCloseTo(screen.getMinX() + screen.getWidth() / 2, offset(1.0));
            assertThat(stage.getY() + stage.getHeight() / 2).isCloseTo(screen.getMinY() + screen.getHeight() / 2, offset(1.0));

            robot.interact(() -> {
                stage.setX(screen.getMinX() + 30);
                stage.setY(screen.getMinY() + 20);
                stage.setWidth(1100);
                stage.setHeight(700);
                view.saveLayout(stage, fresh);
                stage.setX(screen.getMinX());
                stage.setWidth(1280);
                view.restore(stage, MainWindowView.remembered(fresh));
            });

            assertThat(List.of(stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight()))
                    .containsExactly(screen.getMinX() + 30, screen.getMinY() + 20, 1100.0, 700.0);
        } finally {
            fresh.removeNode();
        }
    }

    @Test
    void aViewerLoginIsConnectedReadOnly_andTheStatusBarSaysWhy(FxRobot robot) {
        try (DatabaseLogin viewer = DatabaseLogin.viewer(ns, "main")) {
            robot.interact(() -> model.connect(ConnectionProfile.of("viewer", viewer.config()), viewer.config().pgPassword()));

            TableView<DlqRow> table = await().atMost(WAIT).until(
                    () -> robot.lookup("#dlqTable").tryQuery().map(node -> (TableView<DlqRow>) node).orElse(null),
                    found -> found != null && !found.getItems().isEmpty());
            assertThat(table.getItems()).hasSize(100);
            assertThat(robot.lookup("#statusLabel").queryLabeled().getText()).isEqualTo("Connected to viewer (read-only)");
            assertThat(robot.lookup("#connectionLabel").queryLabeled().getText())
                    .isEqualTo("READ-ONLY · viewer · namespace " + ns.name() + " · login " + viewer.config().pgUser());
            assertThat(robot.lookup("#connectionLabel").queryLabeled().getTooltip().getText())
                    .endsWith("read-only: role " + viewer.login() + " is a viewer: it may look but not decide (no "
                            + "UPDATE on operations, UPDATE on dlq_entries, INSERT on redrive_commands, "
                            + "INSERT on reconciliations, INSERT on audit_log)");
            robot.interact(view::close);
        }
    }
}
