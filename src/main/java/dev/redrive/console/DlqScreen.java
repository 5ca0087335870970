package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.dlq.DlqBrowserView;
import dev.redrive.console.dlq.DlqBrowserViewModel;
import dev.redrive.health.DlqEventTail;
import dev.redrive.triage.query.DlqQueries;
import javafx.stage.Window;

import java.time.Clock;

/** The DLQ browser of a session, over its (masked) queries and the live tail of DLQ events. */
final class DlqScreen {
    private final DlqQueries queries;
    private final DlqBrowserViewModel model;
    private final DlqBrowserView view;

    DlqScreen(DlqQueries queries, DlqEventTail tail, UiExecutor executor, Clock clock) {
        this.queries = queries;
        model = new DlqBrowserViewModel(queries, tail::poll, executor, clock);
        view = DlqBrowserView.load(model);
    }

    /** The console's window, which the dialogs opened from any screen belong to. */
    Window window() {
        return view.root().getScene().getWindow();
    }

    DlqQueries queries() { return queries; }
    DlqBrowserViewModel model() { return model; }
    DlqBrowserView view() { return view; }
}
