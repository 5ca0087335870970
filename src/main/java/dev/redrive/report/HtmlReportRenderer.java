package dev.redrive.report;

import dev.redrive.report.ReportDocument.Bar;
import dev.redrive.report.ReportDocument.Block;
import dev.redrive.report.ReportDocument.Code;
import dev.redrive.report.ReportDocument.Facts;
import dev.redrive.report.ReportDocument.KeyValue;
import dev.redrive.report.ReportDocument.Marker;
import dev.redrive.report.ReportDocument.Paragraph;
import dev.redrive.report.ReportDocument.Section;
import dev.redrive.report.ReportDocument.Table;
import dev.redrive.report.ReportDocument.Timeline;

import dev.redrive.timeline.BrokenTimeAxis;

import java.util.List;
import java.util.Locale;

/** A self-contained HTML page: inline CSS, the attempt timeline drawn as inline SVG, no external resources. */
final class HtmlReportRenderer {
    private static final String STYLE = """
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;margin:2rem auto;max-width:1100px;padding:0 1rem}
            h1{font-size:1.6rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
            h2{font-size:1.3rem;margin-top:2rem;border-bottom:1px solid #d0d7de}
            h3{font-size:1.05rem;margin-top:1.3rem}
            table{border-collapse:collapse;margin:.5rem 0;width:100%}
            th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top;font-size:12.5px}
            th{background:#f6f8fa}
            dl{display:grid;grid-template-columns:max-content auto;gap:.15rem 1rem;margin:.5rem 0}
            dt{color:#59636e}dd{margin:0;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
            pre{background:#f6f8fa;padding:.75rem;overflow:auto;font-size:12.5px}
            .summary{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.25rem 1rem;margin:1rem 0}
            .summary dd{font-family:inherit;font-size:14px}
            .PASS{color:#1a7f37;font-weight:600}.FAIL{color:#cf222e;font-weight:600}
            svg text{font:11px system-ui,Helvetica,Arial,sans-serif}
            """;

    private HtmlReportRenderer() {
    }

    static String render(ReportDocument document) {
        StringBuilder html = new StringBuilder(16_384);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(escape(document.title())).append("</title><style>").append(STYLE).append("</style></head><body>\n");
        html.append("<h1>").append(escape(document.title())).append("</h1>\n");
        html.append("<section class=\"summary\">");
        for (Block block : document.summary()) {
            block(html, block, document.time());
        }
        html.append("</section>\n");
        for (Section section : document.sections()) {
            String tag = section.level() == 1 ? "h2" : "h3";
            html.append('<').append(tag).append('>').append(escape(section.title())).append("</").append(tag).append(">\n");
            for (Block block : section.blocks()) {
                block(html, block, document.time());
            }
        }
        return html.append("</body></html>\n").toString();
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
            svg(html, timeline, time);
        }
    }

    private static void facts(StringBuilder html, List<KeyValue> values) {
        html.append("<dl>");
        for (KeyValue value : values) {
            html.append("<dt>").append(escape(value.key())).append("</dt><dd>").append(escape(value.value())).append("</dd>");
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
     * One row per attempt, then one per redrive marker, then the breaks of the axis (a pale band across the rows with
     * how long nothing happened there), then the first and last moment.
     */
    private static void svg(StringBuilder html, Timeline timeline, ReportTime time) {
        double left = 90;
        double plot = 900;
        int rowHeight = 24;
        int textRow = 14;
        int top = 10;
        ReportTimelineAxis axis = new ReportTimelineAxis(timeline, plot, 30);
        int barsBottom = top + timeline.bars().size() * rowHeight;
        int breaksRow = barsBottom + timeline.markers().size() * textRow + (axis.breaks().isEmpty() ? 0 : textRow);
        int height = breaksRow + 24;
        html.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"attempt timeline\" "
                + "width=\"100%%\" viewBox=\"0 0 %.0f %d\">", left + plot + 20, height));
        for (BrokenTimeAxis.Break gap : axis.breaks()) {
            double x = left + (gap.fromX() + gap.toX()) / 2;
            html.append(String.format(Locale.ROOT, "<g class=\"axis-break\"><title>%s</title><rect x=\"%.1f\" y=\"%d\" width=\"6\" "
                            + "height=\"%d\" fill=\"#eaeef2\"/><text x=\"%.1f\" y=\"%d\" fill=\"#59636e\" text-anchor=\"middle\">≈ %s</text></g>",
                    escape("axis broken: " + ReportTimelineAxis.idle(gap) + " between " + time.format(gap.from()) + " and "
                            + time.format(gap.to())), x - 3, top, breaksRow - top - 10, x, breaksRow,
                    escape(ReportTimelineAxis.idle(gap))));
        }
        int y = top;
        for (Bar bar : timeline.bars()) {
            double x = left + axis.x(bar.start());
            double width = axis.width(bar.start(), bar.end());
            html.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">%s</text>", y + 15, escape(bar.label())));
            html.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" rx=\"2\" fill=\"%s\">"
                            + "<title>%s</title></rect>", x, y + 3, width, ReportTimelineAxis.color(bar.outcome()),
                    escape(time.format(bar.start()) + " - " + time.format(bar.end()) + ": " + bar.detail())));
            html.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#59636e\">%s</text>",
                    Math.min(x + width + 4, left + plot - 120), y + 15, escape(bar.outcome())));
            y += rowHeight;
        }
        for (Marker marker : timeline.markers()) {
            double x = left + axis.x(marker.at());
            y += textRow;
            html.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#0969da\" "
                    + "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"#0969da\">%s</text>", x, top, x, y - 10,
                    Math.min(x + 3, left + plot - 120), y, escape(marker.label())));
        }
        html.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"%d\" fill=\"#59636e\">%s</text>", left, height - 4,
                escape(time.format(timeline.from()))));
        html.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"%d\" fill=\"#59636e\" text-anchor=\"end\">%s</text>",
                left + plot, height - 4, escape(time.format(timeline.to()))));
        html.append("</svg>\n");
    }

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
