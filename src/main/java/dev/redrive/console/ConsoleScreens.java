package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.detail.OperationDetailView;
import dev.redrive.console.detail.OperationDetailViewModel;
import dev.redrive.console.detail.PayloadRedaction;
import dev.redrive.console.dlq.DlqBrowserView;
import dev.redrive.console.dlq.DlqBrowserViewModel;
import dev.redrive.console.health.HealthPanelView;
import dev.redrive.console.health.HealthPanelViewModel;
import dev.redrive.console.health.ThresholdPreferences;
import dev.redrive.console.main.SessionScreens;
import dev.redrive.health.DlqEventTail;
import dev.redrive.health.QueueHealthReader;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.query.JdbcDlqQueries;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.HostServices;
import javafx.scene.Node;
import javafx.util.Duration;

import java.util.prefs.Preferences;

/** Builds the screens of one session: queue health, the DLQ browser and the operation detail, wired together. */
final class ConsoleScreens implements SessionScreens {
    private static final Duration LIVE_POLL = Duration.seconds(2);

    private final HealthPanelView health;
    private final DlqBrowserViewModel browserModel;
    private final DlqBrowserView browser;
    private final OperationDetailView detail;
    private final Timeline livePolling;

    ConsoleScreens(ConsoleSession session, UiExecutor executor, Preferences preferences, HostServices hostServices) {
        QueueHealthReader reader = new QueueHealthReader(session.database(), session.redis(), session.clock());
        HealthPanelViewModel healthModel = new HealthPanelViewModel(reader::read, executor,
                ThresholdPreferences.load(preferences));
        health = HealthPanelView.load(healthModel);
        health.onThresholdsSaved(thresholds -> ThresholdPreferences.save(preferences, thresholds));

        DlqEventTail tail = new DlqEventTail(session.redis());
        browserModel = new DlqBrowserViewModel(new JdbcDlqQueries(session.database()), tail::poll, executor,
                session.clock());
        browser = DlqBrowserView.load(browserModel);

        OperationDetailsLoader loader = new OperationDetailsLoader(session.database());
        OperationDetailViewModel detailModel = new OperationDetailViewModel(loader::require, executor,
                new PayloadRedaction(), session.profile().tracerUrlTemplate());
        detail = OperationDetailView.load(detailModel, hostServices);
        browserModel.currentProperty().addListener((obs, was, row) -> {
            if (row != null) {
                detailModel.show(row.operationId(), row.id());
            }
        });
        livePolling = new Timeline(new KeyFrame(LIVE_POLL, event -> browserModel.pollLive()));
        livePolling.setCycleCount(Timeline.INDEFINITE);
    }

    @Override
    public Node health() {
        return health.root();
    }

    @Override
    public Node browser() {
        return browser.root();
    }

    @Override
    public Node detail() {
        return detail.root();
    }

    @Override
    public void start() {
        health.startPolling(HealthPanelViewModel.defaultPeriod());
        browserModel.applyFilter();
        browserModel.pollLive();
        livePolling.play();
    }

    @Override
    public void close() {
        health.stop();
        livePolling.stop();
    }
}
