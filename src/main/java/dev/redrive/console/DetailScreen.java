package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.detail.OperationDetailView;
import dev.redrive.console.detail.OperationDetailViewModel;
import dev.redrive.console.detail.TracerLinks;
import dev.redrive.console.dlq.DlqBrowserViewModel;
import dev.redrive.console.main.ConsoleSession;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.console.ui.DesktopServices;
import dev.redrive.console.wizard.WizardItem;
import dev.redrive.services.TriageServices;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.redaction.Redactor;

import java.util.Optional;

/** The operation detail of a session: the entry the browser points at, with its operation, evidence and history. */
final class DetailScreen {
    private final OperationDetailViewModel model;
    private final OperationDetailView view;

    DetailScreen(ConsoleSession session, UiExecutor executor, Redactor redactor, DesktopServices desktop) {
        TriageServices services = session.services();
        ConnectionProfile profile = session.profile();
        model = new OperationDetailViewModel(services.operationDetails()::require, services.entryDetails()::require,
                executor, redactor, new TracerLinks(profile.tracerUrlTemplate(), profile.tracerSpanUrlTemplate()));
        view = OperationDetailView.load(model, desktop);
    }

    /** Shows the entry of the browser's current row whenever it changes. */
    void follow(DlqBrowserViewModel browser) {
        browser.currentProperty().addListener((obs, was, row) -> {
            if (row != null) {
                model.showEntry(row.id());
            }
        });
    }

    /** The shown entry at the version shown; an entry without an operation of its own is decided by its id alone. */
    Optional<WizardItem> currentItem() {
        DlqEntryRecord entry = model.entryProperty().get();
        return entry == null ? Optional.empty() : Optional.of(WizardItem.of(entry));
    }

    /**
     * What a discard or resolve from the detail decides: the shown entry, or, for an operation waiting for its retry
     * with no open entry, the operation itself (the decision cancels the retry).
     */
    Optional<WizardItem> decisionItem() {
        if (model.waitsForRetryProperty().get()) {
            return Optional.of(new WizardItem(model.operationIdProperty().get(), null, null));
        }
        return currentItem();
    }

    OperationDetailViewModel model() { return model; }
    OperationDetailView view() { return view; }
}
