package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.health.HealthPanelView;
import dev.redrive.console.health.HealthPanelViewModel;
import dev.redrive.console.health.ThresholdPreferences;
import dev.redrive.console.main.ConsoleSession;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.health.PrometheusThroughput;
import dev.redrive.health.QueueHealthReader;
import javafx.scene.Node;

import java.util.prefs.Preferences;

/** The queue-health panel of a session, its throughput read from Prometheus when the profile names one. */
final class HealthScreen {
    private final HealthPanelView view;

    HealthScreen(ConsoleSession session, UiExecutor executor, Preferences preferences) {
        QueueHealthReader reader = session.services().queueHealth();
        ConnectionProfile profile = session.profile();
        String prometheus = profile.prometheusUrl();
        HealthPanelViewModel model = new HealthPanelViewModel(reader::read, prometheus.isEmpty() ? null
                : new PrometheusThroughput(prometheus, profile.namespace())::read, executor,
                ThresholdPreferences.load(preferences));
        view = HealthPanelView.load(model);
        view.onThresholdsSaved(thresholds -> ThresholdPreferences.save(preferences, thresholds));
    }

    Node root() {
        return view.root();
    }

    void start() {
        view.startPolling(HealthPanelViewModel.defaultPeriod());
    }

    void stop() {
        view.stop();
    }
}
