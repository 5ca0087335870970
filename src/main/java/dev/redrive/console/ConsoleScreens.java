package dev.redrive.console;

import dev.redrive.console.main.ConsoleSession;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.detail.OperationDetailView;
import dev.redrive.console.detail.OperationDetailViewModel;
import dev.redrive.console.detail.TracerLinks;
import dev.redrive.console.dlq.DlqBrowserView;
import dev.redrive.console.dlq.DlqBrowserViewModel;
import dev.redrive.console.health.HealthPanelView;
import dev.redrive.console.health.HealthPanelViewModel;
import dev.redrive.console.health.ThresholdPreferences;
import dev.redrive.console.main.SessionScreens;
import dev.redrive.console.ui.Theme;
import dev.redrive.console.report.ReportExportView;
import dev.redrive.console.batch.BatchOutcomesViewModel;
import dev.redrive.console.batch.BatchesBackend;
import dev.redrive.console.batch.BatchesView;
import dev.redrive.console.batch.BatchesViewModel;
import dev.redrive.console.request.PendingRequestsView;
import dev.redrive.console.request.PendingRequestsViewModel;
import dev.redrive.console.request.RequestsBackend;
import dev.redrive.console.report.ReportExportViewModel;
import dev.redrive.console.ui.DesktopServices;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.services.TriageServices;
import dev.redrive.report.ReportService;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.console.wizard.DecisionDialogs;
import dev.redrive.console.wizard.GroupItems;
import dev.redrive.console.wizard.ReconciliationWizardView;
import dev.redrive.console.wizard.ReconciliationWizardViewModel;
import dev.redrive.console.wizard.TriageWizardBackend;
import dev.redrive.console.wizard.WizardBackend;
import dev.redrive.console.wizard.WizardItem;
import dev.redrive.health.DlqEventTail;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.SideEffectLookup;
import dev.redrive.triage.detail.DlqEntryRecord;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.FingerprintGroup;
import javafx.stage.Window;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.redrive.health.PrometheusThroughput;
import dev.redrive.health.QueueHealthReader;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.scene.Node;
import javafx.util.Duration;

import java.util.prefs.Preferences;

/** Builds the screens of one session: queue health, the DLQ browser and the operation detail, wired together. */
final class ConsoleScreens implements SessionScreens {
    private static final Duration LIVE_POLL = Duration.seconds(2);
    static final int GROUP_LIMIT = 1_000;

    private final HealthPanelView health;
    private final DlqBrowserViewModel browserModel;
    private final DlqBrowserView browser;
    private final OperationDetailView detail;
    private final Timeline livePolling;
    private final DlqQueries queries;
    private final WizardBackend backend;
    private final DecisionDialogs dialogs;
    private final UiExecutor executor;
    private final String operator;
    private final OperationDetailViewModel detailModel;
    private final PendingRequestsViewModel requestsModel;
    private final PendingRequestsView requests;
    private final BatchesViewModel batchesModel;
    private final BatchesView batches;

    ConsoleScreens(ConsoleSession session, UiExecutor executor, Preferences preferences, DesktopServices desktop) {
        TriageServices services = session.services();
        QueueHealthReader reader = services.queueHealth();
        String prometheus = session.profile().prometheusUrl();
        HealthPanelViewModel healthModel = new HealthPanelViewModel(reader::read, prometheus.isEmpty() ? null
                : new PrometheusThroughput(prometheus, session.profile().namespace())::read, executor,
                ThresholdPreferences.load(preferences));
        health = HealthPanelView.load(healthModel);
        health.onThresholdsSaved(thresholds -> ThresholdPreferences.save(preferences, thresholds));

        // Everything shown is masked first: payloads, results, error texts, evidence and reasons.
        Redactor redactor = Redactor.defaults();
        queries = services.dlqQueries(redactor);
        DlqEventTail tail = services.dlqTail();
        browserModel = new DlqBrowserViewModel(queries, tail::poll, executor, session.clock());
        browser = DlqBrowserView.load(browserModel);

        OperationDetailViewModel detailModel = new OperationDetailViewModel(services.operationDetails()::require,
                services.entryDetails()::require, executor, redactor,
                new TracerLinks(session.profile().tracerUrlTemplate(), session.profile().tracerSpanUrlTemplate()));
        detail = OperationDetailView.load(detailModel, desktop);
        browserModel.currentProperty().addListener((obs, was, row) -> {
            if (row != null) {
                detailModel.showEntry(row.id());
            }
        });
        Map<String, URI> endpoints = new HashMap<>();
        session.profile().lookupEndpoints().forEach((tool, url) -> endpoints.put(tool, URI.create(url)));
        SideEffectLookup tools = services.toolLookups(endpoints);
        backend = new TriageWizardBackend(services, tools, redactor);
        this.executor = executor;
        this.operator = session.profile().operatorOrOsUser();
        dialogs = new DecisionDialogs(backend, executor);
        browser.onOpenWizard(rows -> openWizard(rows.stream().map(WizardItem::of).toList()));
        browser.onOpenGroupWizard(this::openGroupWizard);
        detail.onOpenWizard(() -> currentItem(detailModel).ifPresent(item -> openWizard(List.of(item))));
        detail.onResolve(() -> currentItem(detailModel).ifPresent(item -> dialogs.decide(window(), DecisionKind.RESOLVE,
                item, operator, result -> afterDecision(detailModel))));
        detail.onDiscard(() -> currentItem(detailModel).ifPresent(item -> dialogs.decide(window(), DecisionKind.DISCARD,
                item, operator, result -> afterDecision(detailModel))));
        this.detailModel = detailModel;
        ReportService reports = services.reports(redactor, tools);
        ReportExportView export = new ReportExportView(new ReportExportViewModel(reports::write, executor), desktop);
        detail.onExport(() -> currentItem(detailModel).ifPresent(item -> {
            if (item.operationId() == null) {
                export.export(window(), "DLQ entry " + item.dlqEntryId(), "report-entry-" + item.dlqEntryId(),
                        () -> reports.entry(item.dlqEntryId()));
            } else {
                export.export(window(), item.operationId(), "report-" + item.operationId(),
                        () -> reports.operation(item.operationId()));
            }
        }));
        browser.onExportSelection(rows -> export.export(window(), rows.size() + " selected entries",
                "report-selection-" + rows.size(), () -> reports.selection(rows.stream().filter(DlqRow::ownEntry)
                        .map(DlqRow::operationId).distinct().limit(ReportService.MAX_OPERATIONS).toList())));
        browser.onExportGroup(group -> export.export(window(), "group " + group.fingerprint(),
                "report-group-" + group.fingerprint(), () -> reports.group(group.fingerprint())));
        requestsModel = new PendingRequestsViewModel(RequestsBackend.of(services.requests(redactor)), executor, operator);
        requests = PendingRequestsView.load(requestsModel);
        BatchesBackend batchesBackend = BatchesBackend.of(services.batches(), services.batchDecisions(),
                services.requests(redactor), services.batchOutcomes());
        batchesModel = new BatchesViewModel(batchesBackend, executor, services.clock());
        batches = BatchesView.load(batchesModel, new BatchOutcomesViewModel(batchesBackend, executor));
        batches.onShowEntry(detailModel::show);
        batches.onExportReport(id -> export.export(window(), "batch " + id, "report-batch-" + id,
                () -> reports.batch(id)));
        batchesModel.onBatchEnded(browserModel::decidedElsewhere);
        browser.onRedriveGroupAsBatch(group -> batches.startGroup(window(), group.fingerprint(), group.openCount(),
                operator));
        livePolling = new Timeline(new KeyFrame(LIVE_POLL, event -> {
            browserModel.pollLive();
            requestsModel.refreshCount();
            batchesModel.refresh();
        }));
        livePolling.setCycleCount(Timeline.INDEFINITE);
    }

    /** The shown entry at the version shown; an entry without an operation of its own is decided by its id alone. */
    private static Optional<WizardItem> currentItem(OperationDetailViewModel detailModel) {
        DlqEntryRecord entry = detailModel.entryProperty().get();
        return entry == null ? Optional.empty()
                : Optional.of(WizardItem.of(entry));
    }

    private void afterDecision(OperationDetailViewModel model) {
        model.refresh();
        browserModel.reload();
    }

    private Window window() {
        return browser.root().getScene().getWindow();
    }

    /** Opens the wizard on the given entries; decisions taken in it refresh the list and the detail. */
    void openWizard(List<WizardItem> items) {
        if (items.isEmpty()) {
            return;
        }
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, executor, items, operator);
        ReconciliationWizardView view = ReconciliationWizardView.load(model, window(), Theme.stylesheet());
        view.showAndWait();
        // The list holds still: only the rows a decision changed are read again, in place; the detail shows where
        // the operation is now (a failed redrive's new entry when the operator followed that link).
        ReconciliationWizardViewModel.EntryRef shown = model.entryToShow();
        browserModel.refreshRows(model.decidedEntryIds(),
                () -> detailModel.show(shown.operationId(), shown.entryId() == null ? 0 : shown.entryId()));
    }

    /** Opens the wizard on a fingerprint group's open entries (at most {@value #GROUP_LIMIT}). */
    private void openGroupWizard(FingerprintGroup group) {
        executor.submit("Loading the open entries of group " + group.fingerprint(),
                () -> GroupItems.open(queries, group.fingerprint(), GROUP_LIMIT), this::openWizard);
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
    public Node requests() {
        return requests.badge();
    }

    @Override
    public Node batches() {
        return batches.badge();
    }

    @Override
    public void start() {
        health.startPolling(HealthPanelViewModel.defaultPeriod());
        browserModel.applyFilter();
        browserModel.pollLive();
        requestsModel.refreshCount();
        batchesModel.refresh();
        livePolling.play();
    }

    @Override
    public void close() {
        health.stop();
        livePolling.stop();
    }
}
