package dev.redrive.report;

import dev.redrive.report.ReportDocument.Bar;
import dev.redrive.report.ReportDocument.Marker;
import dev.redrive.report.ReportDocument.Timeline;
import dev.redrive.timeline.BrokenTimeAxis;

import java.util.Locale;

import static dev.redrive.report.ReportHtml.escape;

/**
 * A report's attempt timeline: one row per attempt, then one per redrive marker, then the breaks of the axis (a pale
 * band across the rows with how long nothing happened there), then the first and last moment. The shapes are inline
 * SVG; the words are HTML laid over it, placed in percent of the drawing, because the PDF draws an SVG's text as
 * outlines, which no reader can search or copy.
 */
final class TimelineFigure {
    private static final double LEFT = 90;
    private static final double PLOT = 900;
    private static final double WIDTH = LEFT + PLOT + 20;
    private static final int ROW = 24;
    private static final int TEXT_ROW = 14;
    private static final int TOP = 10;
    /** How far above a line of text's baseline its box starts, in the drawing's units. */
    private static final int ASCENT = 11;

    private TimelineFigure() {
    }

    static void render(StringBuilder html, Timeline timeline, ReportTime time) {
        ReportTimelineAxis axis = new ReportTimelineAxis(timeline, PLOT, 30);
        int barsBottom = TOP + timeline.bars().size() * ROW;
        int breaksRow = barsBottom + timeline.markers().size() * TEXT_ROW + (axis.breaks().isEmpty() ? 0 : TEXT_ROW);
        int height = breaksRow + 24;
        StringBuilder words = new StringBuilder();
        html.append(String.format(Locale.ROOT, "<figure class=\"timeline\"><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
                + "aria-label=\"attempt timeline\" width=\"100%%\" viewBox=\"0 0 %.0f %d\">", WIDTH, height));
        for (BrokenTimeAxis.Break gap : axis.breaks()) {
            double x = LEFT + (gap.fromX() + gap.toX()) / 2;
            html.append(String.format(Locale.ROOT, "<g class=\"axis-break\"><title>%s</title><rect x=\"%.1f\" y=\"%d\" width=\"6\" "
                            + "height=\"%d\" fill=\"#eaeef2\"/></g>",
                    escape("axis broken: " + ReportTimelineAxis.idle(gap) + " between " + time.format(gap.from()) + " and "
                            + time.format(gap.to())), x - 3, TOP, breaksRow - TOP - 10));
            words.append(String.format(Locale.ROOT, "<span class=\"idle\" style=\"left:%.2f%%;width:%.2f%%;top:%.2f%%\">≈ %s</span>",
                    percent(x - 100), percent(200), 100.0 * (breaksRow - ASCENT) / height, escape(ReportTimelineAxis.idle(gap))));
        }
        int y = TOP;
        for (Bar bar : timeline.bars()) {
            bar(html, words, bar, axis, time, 100.0 * (y + 3) / height, y);
            y += ROW;
        }
        for (Marker marker : timeline.markers()) {
            double x = LEFT + axis.x(marker.at());
            y += TEXT_ROW;
            html.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#0969da\" "
                    + "stroke-dasharray=\"4 3\"/>", x, TOP, x, y - 10));
            word(words, "marker", Math.min(x + 3, LEFT + PLOT - 120), 100.0 * (y - ASCENT) / height, marker.label());
        }
        html.append("</svg>");
        double axisRow = 100.0 * (height - 4 - ASCENT) / height;
        word(words, "moment", LEFT, axisRow, time.format(timeline.from()));
        wordEndingAt(words, "moment", LEFT + PLOT, axisRow, time.format(timeline.to()));
        html.append(words).append("</figure>\n");
    }

    /** The attempt's name, its bar (hovering shows when and why), and its outcome after the bar. */
    private static void bar(StringBuilder html, StringBuilder words, Bar bar, ReportTimelineAxis axis, ReportTime time,
                            double top, int y) {
        double x = LEFT + axis.x(bar.start());
        double width = axis.width(bar.start(), bar.end());
        html.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" rx=\"2\" fill=\"%s\">"
                        + "<title>%s</title></rect>", x, y + 3, width, ReportTimelineAxis.color(bar.outcome()),
                escape(time.format(bar.start()) + " - " + time.format(bar.end()) + ": " + bar.detail())));
        word(words, "attempt", 4, top, bar.label());
        // After the bar where there is room for it; else before it, where it cannot cover the bar
        if (x + width + 4 <= LEFT + PLOT - 120) {
            word(words, "outcome", x + width + 4, top, bar.outcome());
        } else {
            wordEndingAt(words, "outcome", x - 4, top, bar.outcome());
        }
    }

    private static void word(StringBuilder words, String kind, double x, double top, String text) {
        words.append(String.format(Locale.ROOT, "<span class=\"%s\" style=\"left:%.2f%%;top:%.2f%%\">%s</span>", kind,
                percent(x), top, escape(text)));
    }

    private static void wordEndingAt(StringBuilder words, String kind, double x, double top, String text) {
        words.append(String.format(Locale.ROOT, "<span class=\"%s\" style=\"right:%.2f%%;top:%.2f%%\">%s</span>", kind,
                percent(WIDTH - x), top, escape(text)));
    }

    private static double percent(double x) {
        return 100 * x / WIDTH;
    }
}
