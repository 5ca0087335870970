package dev.redrive.report;

import dev.redrive.report.ReportDocument.Facts;
import dev.redrive.report.ReportDocument.KeyValue;
import dev.redrive.report.ReportDocument.Section;
import dev.redrive.report.ReportDocument.Table;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/** What a reader of a PDF report gets: the page's words as text, ids and states whole, A4 pages, the bundled font. */
class PdfReportTest {
    private static final String COMMAND = "3f2a9c1e-4b1d-4c3e-9a8b-0123456789ab";

    private static ReportDocument commands(int count) {
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(List.of(COMMAND, "2026-11-30 01:30:00.000 UTC", "alice (login postgres)",
                    "PSP confirmed nothing was charged", "3 -> 4", "1", "RETRY_SCHEDULED", "all 5 passed"));
        }
        return new ReportDocument("Incident report: run-1:charge:0",
                List.of(new Facts(List.of(new KeyValue("operation", "run-1:charge:0")))),
                List.of(new Section("Redrive commands", 2, List.of(new Table(List.of("command", "issued", "operator",
                        "reason", "attempts", "schema", "status", "checks when issued"), rows)))),
                new ReportTime(ZoneOffset.UTC));
    }

    @Test
    void aTableLongerThanAPage_goesOnToTheNext_withEveryIdAndStateWhole() throws IOException {
        try (PDDocument pdf = render(commands(80))) {
            String text = new PDFTextStripper().getText(pdf).replaceAll("\\s*\\R\\s*", " ");

            assertThat(pdf.getNumberOfPages()).isGreaterThan(1);
            assertThat(pdf.getPage(0).getMediaBox().getWidth()).isCloseTo(595.3f, offset(1f));
            assertThat(text).startsWith("Incident report: run-1:charge:0 operation: run-1:charge:0 Redrive commands");
            assertThat(text.split(COMMAND, -1)).as("each command id on one line").hasSize(81);
            assertThat(text.split("RETRY_SCHEDULED", -1)).hasSize(81);
            assertThat(text.split("2026-11-30 01:30:00.000 UTC", -1)).hasSize(81);
        }
    }

    @Test
    void everyPage_usesOnlyTheBundledFont_embedded() throws IOException {
        try (PDDocument pdf = render(commands(80))) {
            Set<String> fonts = new TreeSet<>();
            for (PDPage page : pdf.getPages()) {
                PDResources resources = page.getResources();
                for (COSName name : resources.getFontNames()) {
                    assertThat(resources.getFont(name).isEmbedded()).as(name.getName()).isTrue();
                    fonts.add(resources.getFont(name).getName().replaceFirst("^[A-Z]{6}\\+", ""));
                }
            }

            assertThat(fonts).containsExactly("DejaVuSans", "DejaVuSans-Bold");
            assertThat(pdf.getDocumentInformation().getTitle()).isEqualTo("Incident report: run-1:charge:0");
        }
    }

    private static PDDocument render(ReportDocument document) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PdfReport.render(document, out);
        return Loader.loadPDF(out.toByteArray());
    }
}
