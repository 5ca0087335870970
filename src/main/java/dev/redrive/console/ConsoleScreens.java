package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.main.ConsoleSession;
import dev.redrive.console.main.SessionScreens;
import dev.redrive.console.ui.DesktopServices;
import javafx.scene.Node;

import java.util.prefs.Preferences;

/**
 * Builds the screens of one session, one feature each (queue health, the DLQ browser, the operation detail, the
 * decisions, the reports, the four-eyes requests, the batches), and wires them together.
 */
final class ConsoleScreens implements SessionScreens {
    private final HealthScreen health;
    private final DlqScreen browser;
    private final DetailScreen detail;
    private final RequestsScreen requests;
    private final BatchesScreen batches;
    private final LivePolling livePolling;

    ConsoleScreens(ConsoleSession session, UiExecutor executor, Preferences preferences, DesktopServices desktop) {
        String operator = session.profile().operatorOrOsUser();
        health = new HealthScreen(session, executor, preferences);
        SessionTriage triage = new SessionTriage(session);
        browser = new DlqScreen(triage.dlqQueries(), triage.services().dlqTail(), executor, session.clock());
        detail = new DetailScreen(session, executor, triage.redactor(), desktop);
        detail.follow(browser.model());
        new DecisionScreens(triage.wizardBackend(), executor, operator, browser, detail).offer();
        requests = new RequestsScreen(triage.requests(), executor, operator);
        batches = new BatchesScreen(triage, executor);
        batches.link(browser, detail, operator);
        new ReportExports(triage.reports(), executor, desktop, browser).offer(detail, batches);
        livePolling = new LivePolling(browser.model()::pollLive, requests::refreshCount, batches::refresh);
    }

    @Override
    public Node health() {
        return health.root();
    }

    @Override
    public Node browser() {
        return browser.view().root();
    }

    @Override
    public Node detail() {
        return detail.view().root();
    }

    @Override
    public Node requests() {
        return requests.badge();
    }

    @Override
    public Node batches() {
        return batches.badge();
    }

    @Override
    public void start() {
        health.start();
        browser.model().applyFilter();
        browser.model().pollLive();
        requests.refreshCount();
        batches.refresh();
        livePolling.start();
    }

    @Override
    public void close() {
        health.stop();
        livePolling.stop();
    }
}
