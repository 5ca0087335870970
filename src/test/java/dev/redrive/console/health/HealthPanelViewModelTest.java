package dev.redrive.console.health;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.health.HealthAlert;
import dev.redrive.health.HealthThresholds;
import dev.redrive.health.QueueHealth;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HealthPanelViewModelTest {
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private long open = 5;
    private Instant at = NOW;
    private long pending = 2;
    private Duration oldestPendingIdle = Duration.ofSeconds(95);

    private QueueHealth reading() {
        return new QueueHealth(at, 42, 3L, pending, oldestPendingIdle, List.of(), 1, NOW.plusSeconds(30), open, 1, 9,
                NOW.minus(Duration.ofMinutes(3)), List.of());
    }

    @Test
    void aCrossedThresholdNotifiesOnceAndTheBannerFollowsTheReadings() {
        HealthPanelViewModel model = model(new HealthThresholds(10, 0, Duration.ZERO));
        List<HealthAlert> notified = new ArrayList<>();
        model.onNewAlert(notified::add);

        model.refresh();
        assertThat(model.alertingProperty().get()).isFalse();
        assertThat(model.dispatchLengthProperty().get()).isEqualTo("42");
        assertThat(model.pendingDetailProperty().get()).isEqualTo("oldest idle 1 min 35 s");
        assertThat(model.oldestOpenProperty().get()).isEqualTo("3 min");

        open = 11;
        model.refresh();
        model.refresh();
        assertThat(notified).extracting(HealthAlert::kind).containsExactly(HealthAlert.Kind.DEPTH);
        assertThat(model.bannerProperty().get()).isEqualTo("11 open DLQ entries (threshold 10)");

        open = 4;
        at = NOW.plusSeconds(60);
        model.refresh();
        assertThat(model.alertingProperty().get()).isFalse();
        open = 12;
        model.refresh();
        assertThat(model.alertingProperty().get()).isTrue();
        assertThat(notified).as("crossing again within the same episode").hasSize(1);

        open = 4;
        at = NOW.plus(Duration.ofMinutes(10));
        model.refresh();
        at = NOW.plus(Duration.ofMinutes(30));
        model.refresh();
        open = 13;
        model.refresh();
        assertThat(notified).as("a new episode after the alert stayed clear").hasSize(2);
    }

    @Test
    void anAlertFlickeringWithEveryRefreshForAnHour_notifiesOnce() {
        HealthPanelViewModel model = model(new HealthThresholds(10, 0, Duration.ZERO));
        List<HealthAlert> notified = new ArrayList<>();
        model.onNewAlert(notified::add);

        for (int refresh = 0; refresh < 720; refresh++) {
            at = NOW.plusSeconds(5L * refresh);
            open = refresh % 2 == 0 ? 11 : 9;
            model.refresh();
        }

        assertThat(notified).hasSize(1);
    }

    @Test
    void withNonePending_thePendingTileSaysWhatItCounts() {
        HealthPanelViewModel model = model(HealthThresholds.DEFAULTS);
        pending = 0;
        oldestPendingIdle = null;

        model.refresh();

        assertThat(model.pendingProperty().get()).isEqualTo("0");
        assertThat(model.pendingDetailProperty().get()).isEqualTo("delivered, not acked");
    }

    @Test
    void changedThresholdsApplyToTheLastReading() {
        HealthPanelViewModel model = model(HealthThresholds.DEFAULTS);
        model.refresh();

        model.setThresholds(new HealthThresholds(0, 0, Duration.ofMinutes(2)));

        assertThat(model.alerts()).extracting(HealthAlert::kind).containsExactly(HealthAlert.Kind.AGE);
    }

    /** The panel's model over this test's readings, run inline. */
    private HealthPanelViewModel model(HealthThresholds thresholds) {
        return new HealthPanelViewModel(this::reading, UiExecutor.inline(), thresholds);
    }
}
