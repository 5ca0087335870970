package dev.redrive.console;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.report.ReportExportView;
import dev.redrive.console.report.ReportExportViewModel;
import dev.redrive.console.ui.DesktopServices;
import dev.redrive.console.wizard.WizardItem;
import dev.redrive.report.ReportService;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.FingerprintGroup;

import java.util.List;

/** The reports the screens export: of the shown entry, of the selected entries, of a group, of a batch. */
final class ReportExports {
    private final ReportService reports;
    private final ReportExportView export;
    private final DlqScreen browser;

    ReportExports(ReportService reports, UiExecutor executor, DesktopServices desktop, DlqScreen browser) {
        this.reports = reports;
        this.export = new ReportExportView(new ReportExportViewModel(reports::write, executor), desktop);
        this.browser = browser;
    }

    /** Puts an export behind the list's, the detail's and the batches' report commands. */
    void offer(DetailScreen detail, BatchesScreen batches) {
        detail.view().onExport(() -> detail.currentItem().ifPresent(this::exportEntry));
        browser.view().onExportSelection(this::exportSelection);
        browser.view().onExportGroup(this::exportGroup);
        batches.view().onExportReport(id -> export.export(browser.window(), "batch " + id, "report-batch-" + id,
                () -> reports.batch(id)));
    }

    private void exportEntry(WizardItem item) {
        if (item.operationId() == null) {
            export.export(browser.window(), "DLQ entry " + item.dlqEntryId(), "report-entry-" + item.dlqEntryId(),
                    () -> reports.entry(item.dlqEntryId()));
        } else {
            export.export(browser.window(), item.operationId(), "report-" + item.operationId(),
                    () -> reports.operation(item.operationId()));
        }
    }

    private void exportSelection(List<DlqRow> rows) {
        export.export(browser.window(), rows.size() + " selected entries", "report-selection-" + rows.size(),
                () -> reports.selection(rows.stream().filter(DlqRow::ownEntry).map(DlqRow::operationId).distinct()
                        .limit(ReportService.MAX_OPERATIONS).toList()));
    }

    private void exportGroup(FingerprintGroup group) {
        export.export(browser.window(), "group " + group.fingerprint(), "report-group-" + group.fingerprint(),
                () -> reports.group(group.fingerprint()));
    }
}
