package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.wizard.DecisionDialogs;
import dev.redrive.console.wizard.GroupItems;
import dev.redrive.console.wizard.ReconciliationWizardView;
import dev.redrive.console.wizard.ReconciliationWizardViewModel;
import dev.redrive.console.wizard.WizardBackend;
import dev.redrive.console.wizard.WizardItem;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.query.FingerprintGroup;

import java.util.List;

/**
 * Where an operator decides: the reconciliation wizard and the resolve and discard dialogs, opened from the DLQ list
 * and the detail. What they decide is read again in both.
 */
final class DecisionScreens {
    static final int GROUP_LIMIT = 1_000;

    private final WizardBackend backend;
    private final UiExecutor executor;
    private final String operator;
    private final DecisionDialogs dialogs;
    private final DlqScreen browser;
    private final DetailScreen detail;

    DecisionScreens(WizardBackend backend, UiExecutor executor, String operator, DlqScreen browser, DetailScreen detail) {
        this.backend = backend;
        this.executor = executor;
        this.operator = operator;
        this.dialogs = new DecisionDialogs(backend, executor);
        this.browser = browser;
        this.detail = detail;
    }

    /** Puts the wizard behind the list's and the detail's commands, and the dialogs behind the detail's. */
    void offer() {
        browser.view().onOpenWizard(rows -> openWizard(rows.stream().map(WizardItem::of).toList()));
        browser.view().onOpenGroupWizard(this::openGroupWizard);
        detail.view().onOpenWizard(() -> detail.currentItem().ifPresent(item -> openWizard(List.of(item))));
        detail.view().onResolve(() -> decide(DecisionKind.RESOLVE));
        detail.view().onDiscard(() -> decide(DecisionKind.DISCARD));
    }

    private void decide(DecisionKind kind) {
        detail.decisionItem().ifPresent(item -> dialogs.decide(browser.window(), kind, item, operator, result -> {
            detail.model().refresh();
            browser.model().reload();
        }));
    }

    /** Opens the wizard on the given entries; decisions taken in it refresh the list and the detail. */
    private void openWizard(List<WizardItem> items) {
        if (items.isEmpty()) {
            return;
        }
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, executor, items, operator);
        ReconciliationWizardView view = ReconciliationWizardView.load(model, browser.window(), Theme.stylesheet());
        view.showAndWait();
        // The list holds still: only the rows a decision changed are read again, in place; the detail shows where
        // the operation is now (a failed redrive's new entry when the operator followed that link).
        ReconciliationWizardViewModel.EntryRef shown = model.entryToShow();
        browser.model().refreshRows(model.decidedEntryIds(),
                () -> detail.model().show(shown.operationId(), shown.entryId() == null ? 0 : shown.entryId()));
    }

    /** Opens the wizard on a fingerprint group's open entries (at most {@value #GROUP_LIMIT}). */
    private void openGroupWizard(FingerprintGroup group) {
        executor.submit("Loading the open entries of group " + group.fingerprint(),
                () -> GroupItems.open(browser.queries(), group.fingerprint(), GROUP_LIMIT), this::openWizard);
    }
}
