package dev.redrive.report;

import dev.redrive.report.ReportDocument.Block;
import dev.redrive.report.ReportDocument.Code;
import dev.redrive.report.ReportDocument.Facts;
import dev.redrive.report.ReportDocument.KeyValue;
import dev.redrive.report.ReportDocument.Marker;
import dev.redrive.report.ReportDocument.Paragraph;
import dev.redrive.report.ReportDocument.Section;
import dev.redrive.report.ReportDocument.Table;
import dev.redrive.report.ReportDocument.Timeline;

import java.util.List;

/** GitHub-flavoured Markdown: facts as lists, tables as pipe tables, the timeline's redrive moments as a list. */
final class MarkdownReportRenderer {
    private MarkdownReportRenderer() {
    }

    static String render(ReportDocument document) {
        StringBuilder md = new StringBuilder(16_384);
        md.append("# ").append(inline(document.title())).append("\n\n");
        for (Block block : document.summary()) {
            block(md, block, document.time());
        }
        for (Section section : document.sections()) {
            md.append(section.level() == 1 ? "## " : "### ").append(inline(section.title())).append("\n\n");
            for (Block block : section.blocks()) {
                block(md, block, document.time());
            }
        }
        return md.toString();
    }

    private static void block(StringBuilder md, Block block, ReportTime time) {
        if (block instanceof Paragraph paragraph) {
            md.append(inline(paragraph.text())).append("\n\n");
        } else if (block instanceof Facts facts) {
            facts(md, facts.values());
        } else if (block instanceof Table table) {
            table(md, table);
        } else if (block instanceof Code code) {
            md.append("```json\n").append(code.text().replace("```", "'''")).append("\n```\n\n");
        } else if (block instanceof Timeline timeline) {
            timeline(md, timeline, time);
        }
    }

    private static void facts(StringBuilder md, List<KeyValue> values) {
        for (KeyValue value : values) {
            md.append("- **").append(inline(value.key())).append("**: ").append(inline(value.value())).append('\n');
        }
        md.append('\n');
    }

    private static void table(StringBuilder md, Table table) {
        md.append('|');
        for (String header : table.headers()) {
            md.append(' ').append(cell(header)).append(" |");
        }
        md.append("\n|");
        md.append(" --- |".repeat(table.headers().size()));
        md.append('\n');
        for (List<String> row : table.rows()) {
            md.append('|');
            for (String value : row) {
                md.append(' ').append(cell(value)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    /**
     * Markdown cannot draw the bars, and the attempts table that follows lists every attempt: only the redrive moments
     * are written here.
     */
    private static void timeline(StringBuilder md, Timeline timeline, ReportTime time) {
        for (Marker marker : timeline.markers()) {
            md.append("- `").append(time.format(marker.at())).append("` ").append(inline(marker.label())).append('\n');
        }
        if (!timeline.markers().isEmpty()) {
            md.append('\n');
        }
    }

    private static String cell(String text) {
        return inline(text).replace("|", "\\|");
    }

    private static String inline(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("\r", " ").replace("\n", " ").replace("<", "&lt;").replace(">", "&gt;");
    }
}
