package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.health.HealthPanelView;
import dev.redrive.console.health.HealthPanelViewModel;
import dev.redrive.console.health.ThresholdPreferences;
import dev.redrive.console.main.MainWindowViewModel;
import dev.redrive.console.main.SessionScreens;
import dev.redrive.health.QueueHealthReader;
import javafx.scene.Node;
import javafx.scene.control.Label;

import java.util.prefs.Preferences;

/** Builds the screens of one session: queue health, the DLQ browser and the operation detail, wired together. */
final class ConsoleScreens implements SessionScreens {
    private final HealthPanelView health;

    ConsoleScreens(ConsoleSession session, UiExecutor executor, Preferences preferences, MainWindowViewModel main) {
        QueueHealthReader reader = new QueueHealthReader(session.database(), session.redis(), session.clock());
        HealthPanelViewModel healthModel = new HealthPanelViewModel(reader::read, executor,
                ThresholdPreferences.load(preferences));
        health = HealthPanelView.load(healthModel);
        health.onThresholdsSaved(thresholds -> ThresholdPreferences.save(preferences, thresholds));
    }

    @Override
    public Node health() {
        return health.root();
    }

    @Override
    public Node browser() {
        return new Label("DLQ browser");
    }

    @Override
    public Node detail() {
        return new Label("Select a DLQ entry to see its operation.");
    }

    @Override
    public void start() {
        health.startPolling(HealthPanelViewModel.defaultPeriod());
    }

    @Override
    public void close() {
        health.stop();
    }
}
