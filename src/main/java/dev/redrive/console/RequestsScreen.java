package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.request.PendingRequestsView;
import dev.redrive.console.request.PendingRequestsViewModel;
import dev.redrive.console.request.RequestsBackend;
import dev.redrive.triage.request.DecisionRequests;
import javafx.scene.Node;

/** The four-eyes requests waiting for a second operator: a badge with their count that opens the list. */
final class RequestsScreen {
    private final PendingRequestsViewModel model;
    private final PendingRequestsView view;

    RequestsScreen(DecisionRequests requests, UiExecutor executor, String operator) {
        model = new PendingRequestsViewModel(RequestsBackend.of(requests), executor, operator);
        view = PendingRequestsView.load(model);
    }

    Node badge() {
        return view.badge();
    }

    void refreshCount() {
        model.refreshCount();
    }
}
