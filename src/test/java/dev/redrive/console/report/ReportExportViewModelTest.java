package dev.redrive.console.report;

import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.report.ReportFormat;
import dev.redrive.report.ReportService;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReportExportViewModelTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @TempDir
    Path directory;

    @Test
    void exportedPdfAndHtmlNameTheOperationAndItsDecision() throws Exception {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(20, "report");
        String operationId = ns.database().jdbc().queryOne(
                "SELECT operation_id FROM dlq_entries WHERE decision_state = 'OPEN' ORDER BY id LIMIT 1",
                row -> row.getString(1)).orElseThrow();
        TestDecisions.of(ns)
                .discard(DecisionTarget.operation(operationId), "ana", "duplicate of an order already shipped");
        ReportService service = new ReportService(ns.database(), Clock.systemUTC(), Redactor.defaults());
        ReportExportViewModel model = new ReportExportViewModel(service::write, UiExecutor.inline());
        List<Path> written = new ArrayList<>();

        model.export(operationId, () -> service.operation(operationId), ReportFormat.PDF, directory.resolve("r.pdf"), written::add);
        model.export(operationId, () -> service.operation(operationId), ReportFormat.HTML, directory.resolve("r.html"), written::add);

        assertThat(written).hasSize(2);
        String html = Files.readString(written.get(1));
        assertThat(html).contains(operationId).contains("duplicate of an order already shipped");
        try (var pdf = Loader.loadPDF(written.get(0).toFile())) {
            String text = new PDFTextStripper().getText(pdf).replaceAll("\\s+", " ");
            assertThat(text).contains(operationId).contains("DISCARD");
        }
        assertThat(model.messageProperty().get()).startsWith("Saved ");
    }
}
