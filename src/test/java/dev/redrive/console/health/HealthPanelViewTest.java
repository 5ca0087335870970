package dev.redrive.console.health;

import dev.redrive.broker.StreamKeys;
import dev.redrive.console.ThemedStage;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Theme;
import dev.redrive.health.DlqFixture;
import dev.redrive.health.HealthThresholds;
import dev.redrive.health.QueueHealthReader;
import dev.redrive.testing.TestNamespace;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import dev.redrive.console.ui.Truncations;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(ApplicationExtension.class)
class HealthPanelViewTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();
    private static final UiExecutor executor = UiExecutor.forFx(2);

    private HealthPanelViewModel model;
    private Region strip;

    @Start
    void start(Stage stage) {
        Theme.apply(false);
        RedisClusterCommands<String, String> redis = ns.redis().sync();
        String dispatch = ns.redis().keys().dispatch();
        redis.del(dispatch, ns.redis().keys().retry());
        DlqFixture.dispatchBacklog(ns.redis(), 7, 3);
        redis.zadd(ns.redis().keys().retry(), Instant.now().plusSeconds(30).toEpochMilli(), "r1");
        ns.database().jdbc().update("DELETE FROM dlq_entries");
        DlqFixture.insert(ns.database(), "run-h", 12, "TRANSIENT", "demo.charge", "fp-h", "NONE", "OPEN",
                Instant.now().minusSeconds(1));

        model = new HealthPanelViewModel(new QueueHealthReader(ns.database(), ns.redis(), Clock.systemUTC())::read,
                executor, new HealthThresholds(10, 0, Duration.ZERO));
        HealthPanelView view = HealthPanelView.load(model);
        strip = (Region) view.root();
        // In a box that gives the strip its own height, as the main window's header does.
        ThemedStage.show(stage, new VBox(strip), 1200, 300);
    }

    @AfterAll
    static void stopExecutor() {
        executor.close();
    }

    @Test
    void panelNumbersEqualWhatRedisAndTheDlqReport(FxRobot robot) {
        RedisClusterCommands<String, String> redis = ns.redis().sync();
        String dispatch = ns.redis().keys().dispatch();

        robot.interact(model::refresh);

        // The numbers and the banner are laid out a moment after the reading arrives on a busy machine.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(text(robot, "#healthDispatchLength")).isEqualTo(String.valueOf(redis.xlen(dispatch)));
            assertThat(text(robot, "#healthPending"))
                    .isEqualTo(String.valueOf(redis.xpending(dispatch, StreamKeys.WORKER_GROUP).getCount()));
            assertThat(text(robot, "#healthLag")).isEqualTo("4");
            assertThat(text(robot, "#healthRetrySet")).isEqualTo(String.valueOf(redis.zcard(ns.redis().keys().retry())));
            assertThat(text(robot, "#healthDlqOpen")).isEqualTo("12");
            assertThat(robot.lookup("#healthBanner").query().isVisible()).isTrue();
            assertThat(text(robot, "#healthBannerText")).as("a badge below 1400 px").isEqualTo("1 DLQ alert");
        });
    }

    @Test
    void theStripKeepsItsHeightWhenTheBannerComes_aBadgeAt1280px_theWholeSentenceAt1600px(FxRobot robot)
            throws Exception {
        Window window = strip.getScene().getWindow();
        robot.interact(() -> {
            window.setWidth(1280);
            model.setThresholds(new HealthThresholds(1_000, 0, Duration.ZERO));
            model.refresh();
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> "12".equals(text(robot, "#healthDlqOpen")));
        robot.interact(() -> { });
        double quiet = strip.getHeight();
        assertThat(robot.lookup("#healthBanner").query().isVisible()).isFalse();

        robot.interact(() -> model.setThresholds(new HealthThresholds(10, 0, Duration.ZERO)));
        robot.interact(() -> { });

        assertThat(robot.lookup("#healthBanner").query().isVisible()).isTrue();
        assertThat(strip.getHeight()).as("height with the banner at 1280 px").isEqualTo(quiet);
        assertThat(text(robot, "#healthBannerText")).isEqualTo("1 DLQ alert");
        assertThat(Truncations.under(strip)).isEmpty();
        Tooltip tooltip = Tooltip.class.cast(robot.lookup("#healthBanner").query().getProperties().get("javafx.scene.control.Tooltip"));
        assertThat(tooltip.getText()).isEqualTo("12 open DLQ entries (threshold 10)");

        robot.interact(() -> window.setWidth(1600));
        robot.interact(() -> { });
        assertThat(text(robot, "#healthBannerText")).isEqualTo("12 open DLQ entries (threshold 10)");
        assertThat(strip.getHeight()).as("height with the banner at 1600 px").isEqualTo(quiet);
    }

    private static String text(FxRobot robot, String query) {
        return robot.lookup(query).queryAs(Label.class).getText();
    }
}
