package dev.redrive.report;

import dev.redrive.report.ReportDocument.Block;
import dev.redrive.report.ReportDocument.Code;
import dev.redrive.report.ReportDocument.Facts;
import dev.redrive.report.ReportDocument.KeyValue;
import dev.redrive.report.ReportDocument.Paragraph;
import dev.redrive.report.ReportDocument.Section;
import dev.redrive.report.ReportDocument.Table;
import dev.redrive.report.ReportDocument.Timeline;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The report's one template: a self-contained page (inline CSS, the attempt timeline as inline SVG, no external
 * resource) that is the HTML report, and that openhtmltopdf lays out on A4 pages as the PDF report ({@link PdfReport}).
 * It is written as XHTML, well-formed XML that browsers read as HTML, because openhtmltopdf parses it as XML; its
 * stylesheet, {@code report.css}, has the page's look on screen and, under {@code @media print}, on paper.
 */
final class ReportHtml {
    private static final String STYLE = stylesheet();
    private static final String PAGE = """
            <!DOCTYPE html>
            <html lang="en" xmlns="http://www.w3.org/1999/xhtml"><head><meta charset="utf-8"/><title>%1$s</title><style>
            %2$s</style></head><body>
            <h1>%1$s</h1>
            <section class="summary">%3$s</section>
            %4$s</body></html>
            """;

    private ReportHtml() {
    }

    static String render(ReportDocument document) {
        StringBuilder summary = new StringBuilder();
        for (Block block : document.summary()) {
            block(summary, block, document.time());
        }
        StringBuilder sections = new StringBuilder(16_384);
        for (Section section : document.sections()) {
            String tag = section.level() == 1 ? "h2" : "h3";
            sections.append('<').append(tag).append('>').append(escape(section.title())).append("</").append(tag).append(">\n");
            for (Block block : section.blocks()) {
                block(sections, block, document.time());
            }
        }
        return PAGE.formatted(escape(document.title()), STYLE, summary, sections);
    }

    private static void block(StringBuilder html, Block block, ReportTime time) {
        if (block instanceof Paragraph paragraph) {
            html.append("<p>").append(escape(paragraph.text())).append("</p>\n");
        } else if (block instanceof Facts facts) {
            facts(html, facts.values());
        } else if (block instanceof Table table) {
            table(html, table);
        } else if (block instanceof Code code) {
            html.append("<pre>").append(escape(code.text())).append("</pre>\n");
        } else if (block instanceof Timeline timeline) {
            TimelineFigure.render(html, timeline, time);
        }
    }

    /** A term and its value per row (a {@code div} each, so that both media lay them out as a two-column table). */
    private static void facts(StringBuilder html, List<KeyValue> values) {
        html.append("<dl>");
        for (KeyValue value : values) {
            html.append("<div><dt>").append(escape(value.key())).append("</dt><dd>").append(escape(value.value()))
                    .append("</dd></div>");
        }
        html.append("</dl>\n");
    }

    private static void table(StringBuilder html, Table table) {
        html.append("<table><thead><tr>");
        for (String header : table.headers()) {
            html.append("<th>").append(escape(header)).append("</th>");
        }
        html.append("</tr></thead><tbody>");
        for (List<String> row : table.rows()) {
            html.append("<tr>");
            for (String cell : row) {
                boolean verdict = cell.equals("PASS") || cell.equals("FAIL");
                html.append(verdict ? "<td class=\"" + cell + "\">" : "<td>").append(escape(cell)).append("</td>");
            }
            html.append("</tr>");
        }
        html.append("</tbody></table>\n");
    }

    /**
     * Text as XML character data: markup characters escaped, and the characters XML cannot hold (control characters
     * other than tab and line breaks, lone surrogates) written as a space or U+FFFD, as a browser would show them.
     */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        text.codePoints().forEach(c -> {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                case '\t', '\n', '\r' -> out.append((char) c);
                default -> {
                    if (Character.isISOControl(c)) {
                        out.append(' ');
                    } else if (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE || c == 0xFFFE || c == 0xFFFF) {
                        out.append('\uFFFD');
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.toString();
    }

    private static String stylesheet() {
        try (InputStream in = ReportHtml.class.getResourceAsStream("report.css")) {
            if (in == null) {
                throw new IllegalStateException("report.css is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
