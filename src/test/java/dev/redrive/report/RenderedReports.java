package dev.redrive.report;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** An incident report rendered as a reader sees it, for tests that look at what it says. */
public final class RenderedReports {
    private RenderedReports() {
    }

    /**
     * The report as {@code format} renders it: HTML and Markdown as written, a PDF as its text with line breaks
     * folded into spaces.
     */
    public static String text(ReportService reports, IncidentReport report, ReportFormat format) {
        return format == ReportFormat.PDF ? pdfText(reports, report, Integer.MAX_VALUE)
                : new String(bytes(reports, report, format), StandardCharsets.UTF_8);
    }

    /** The text of the first page of the report's PDF, line breaks folded into spaces. */
    public static String pdfFirstPage(ReportService reports, IncidentReport report) {
        return pdfText(reports, report, 1);
    }

    private static String pdfText(ReportService reports, IncidentReport report, int lastPage) {
        try (PDDocument pdf = Loader.loadPDF(bytes(reports, report, ReportFormat.PDF))) {
            PDFTextStripper stripper = new PDFTextStripper();
            stripper.setEndPage(lastPage);
            return stripper.getText(pdf).replaceAll("\\s*\\R\\s*", " ");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(ReportService reports, IncidentReport report, ReportFormat format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        reports.write(report, format, out);
        return out.toByteArray();
    }
}
