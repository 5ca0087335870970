package dev.redrive.console;

import dev.redrive.console.batch.BatchOutcomesViewModel;
import dev.redrive.console.batch.BatchesBackend;
import dev.redrive.console.batch.BatchesView;
import dev.redrive.console.batch.BatchesViewModel;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.services.TriageServices;
import javafx.scene.Node;

/** The batches of a session: a badge with the running ones that opens their list, each batch's outcomes, a new batch. */
final class BatchesScreen {
    private final BatchesViewModel model;
    private final BatchesView view;

    BatchesScreen(SessionTriage triage, UiExecutor executor) {
        TriageServices services = triage.services();
        BatchesBackend backend = BatchesBackend.of(services.batches(), services.batchDecisions(), triage.requests(),
                services.batchOutcomes());
        model = new BatchesViewModel(backend, executor, services.clock());
        view = BatchesView.load(model, new BatchOutcomesViewModel(backend, executor));
    }

    /**
     * A batch's item shows in the detail; an ended batch has the list read again; a group of the list can be redriven
     * as a batch under {@code operator}'s name.
     */
    void link(DlqScreen browser, DetailScreen detail, String operator) {
        view.onShowEntry(detail.model()::show);
        model.onBatchEnded(browser.model()::decidedElsewhere);
        browser.view().onRedriveGroupAsBatch(group -> view.startGroup(browser.window(), group.fingerprint(),
                group.openCount(), operator));
    }

    Node badge() {
        return view.badge();
    }

    void refresh() {
        model.refresh();
    }

    BatchesView view() { return view; }
}
