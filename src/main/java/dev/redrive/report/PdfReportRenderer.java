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
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDPropertyList;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType0Font;

import java.awt.Color;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The same content as the HTML report on A4 pages, in DejaVu Sans (bundled, embedded as a subset), which covers Latin,
 * Greek, Cyrillic, arrows, math signs and much more. A character it has no glyph for (CJK, most emoji) is drawn as
 * U+FFFD inside a marked-content span whose /ActualText holds the real character, so the report still renders, and
 * copying or extracting its text gives the original.
 */
final class PdfReportRenderer {
    private static final float MARGIN = 40;
    private static final float WIDTH = PDRectangle.A4.getWidth() - 2 * MARGIN;
    /** A timeline's drawing width: a column of attempt names on its left, the outcomes on its right. */
    private static final float TIMELINE_PLOT = WIDTH - 140;
    private static final String REGULAR_FONT = "/fonts/DejaVuSans.ttf";
    private static final String BOLD_FONT = "/fonts/DejaVuSans-Bold.ttf";
    private static final float CELL_FONT = 7.5f;
    private static final float CELL_LINE = 9.5f;
    private static final float CELL_PADDING = 3;
    /** A word longer than this (in points: a UUID fits) may be split inside its cell rather than widen the column further. */
    private static final float LONGEST_UNBROKEN = 175;
    private static final int SUBSTITUTE = '\uFFFD';
    private static final COSName SPAN = COSName.getPDFName("Span");

    private final PDDocument pdf;
    private final PDFont regular;
    private final PDFont bold;
    private final Map<Integer, Boolean> drawable = new HashMap<>();
    private PDPageContentStream content;
    private float y;

    private PdfReportRenderer(PDDocument pdf) throws IOException {
        this.pdf = pdf;
        regular = font(REGULAR_FONT);
        bold = font(BOLD_FONT);
    }

    private PDFont font(String resource) throws IOException {
        try (InputStream in = PdfReportRenderer.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("the font " + resource + " is missing from the classpath");
            }
            return PDType0Font.load(pdf, in);
        }
    }

    static void render(ReportDocument document, OutputStream out) {
        try (PDDocument pdf = new PDDocument()) {
            PdfReportRenderer renderer = new PdfReportRenderer(pdf);
            renderer.write(document);
            renderer.content.close();
            PDDocumentInformation info = pdf.getDocumentInformation();
            info.setTitle(document.title());
            info.setCreator("Redrive");
            pdf.save(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the PDF report: " + e.getMessage(), e);
        }
    }

    private void write(ReportDocument document) throws IOException {
        newPage();
        text(document.title(), bold, 16, 0);
        y -= 4;
        for (Block block : document.summary()) {
            block(block, document.time());
        }
        for (Section section : document.sections()) {
            y -= section.level() == 1 ? 14 : 8;
            // A heading stays with what it introduces: a timeline is drawn whole, so it must fit below the heading.
            need(40 + (section.blocks().isEmpty() || !(section.blocks().get(0) instanceof Timeline timeline) ? 0
                    : timelineHeight(timeline)));
            text(section.title(), bold, section.level() == 1 ? 13 : 11, 0);
            y -= 2;
            for (Block block : section.blocks()) {
                block(block, document.time());
            }
        }
    }

    private void block(Block block, ReportTime time) throws IOException {
        if (block instanceof Paragraph paragraph) {
            text(paragraph.text(), regular, 9, 0);
        } else if (block instanceof Facts facts) {
            for (KeyValue value : facts.values()) {
                keyValue(value);
            }
        } else if (block instanceof Table table) {
            table(table);
        } else if (block instanceof Code code) {
            for (String line : code.text().split("\n")) {
                text(line, regular, 8, 6);
            }
        } else if (block instanceof Timeline timeline) {
            timeline(timeline, time);
        }
        y -= 3;
    }

    /** "key: value" with the key in bold and the value wrapped beside it, so the facts can be scanned by name. */
    private void keyValue(KeyValue value) throws IOException {
        String key = value.key() + ": ";
        float keyWidth = Math.min(width(key, bold, 9), WIDTH / 2);
        need(12);
        show(key, bold, 9, MARGIN + 6, y);
        for (String line : wrap(value.value(), regular, 9, WIDTH - 6 - keyWidth)) {
            need(12);
            show(line, regular, 9, MARGIN + 6 + keyWidth, y);
            y -= 11;
        }
    }

    /**
     * A real table: a header row, columns sized by their content, long cells wrapped inside their column, the header
     * again at the top of each new page (and never alone at the bottom of one).
     */
    private void table(Table table) throws IOException {
        float[] widths = columnWidths(table);
        List<List<String>> header = cells(table.headers(), widths, bold);
        float headerHeight = height(header);
        if (!table.rows().isEmpty()) {
            need(headerHeight + height(cells(table.rows().get(0), widths, regular)));
        }
        drawRow(header, widths, bold, headerHeight);
        for (List<String> row : table.rows()) {
            List<List<String>> lines = cells(row, widths, regular);
            float rowHeight = height(lines);
            if (y - rowHeight < MARGIN) {
                newPage();
                drawRow(header, widths, bold, headerHeight);
            }
            drawRow(lines, widths, regular, rowHeight);
        }
        y -= 2;
    }

    /** Each cell's text wrapped to its column. */
    private List<List<String>> cells(List<String> row, float[] widths, PDFont font) throws IOException {
        List<List<String>> lines = new ArrayList<>();
        for (int i = 0; i < widths.length; i++) {
            lines.add(wrap(i < row.size() ? row.get(i) : "", font, CELL_FONT, widths[i] - 2 * CELL_PADDING));
        }
        return lines;
    }

    private static float height(List<List<String>> cells) {
        int lines = cells.stream().mapToInt(List::size).max().orElse(1);
        return Math.max(1, lines) * CELL_LINE + 2 * CELL_PADDING;
    }

    private void drawRow(List<List<String>> cells, float[] widths, PDFont font, float rowHeight) throws IOException {
        float top = y + CELL_FONT;
        content.setStrokingColor(new Color(0xd0, 0xd7, 0xde));
        if (font == bold) {
            content.setNonStrokingColor(new Color(0xf6, 0xf8, 0xfa));
            content.addRect(MARGIN, top - rowHeight, WIDTH, rowHeight);
            content.fill();
            content.setNonStrokingColor(Color.BLACK);
        }
        float x = MARGIN;
        for (int i = 0; i < widths.length; i++) {
            content.addRect(x, top - rowHeight, widths[i], rowHeight);
            float lineY = top - CELL_PADDING - CELL_FONT;
            for (String line : cells.get(i)) {
                show(line, font, CELL_FONT, x + CELL_PADDING, lineY);
                lineY -= CELL_LINE;
            }
            x += widths[i];
        }
        content.stroke();
        y -= rowHeight;
    }

    /**
     * Column widths filling the page. When every column's longest line fits, each gets it (the spare goes to the
     * widest); otherwise each gets at least its longest word (so "RETRY_SCHEDULED" is never split) and the rest of
     * the page is shared in proportion to how much more each wants.
     */
    private float[] columnWidths(Table table) throws IOException {
        int columns = table.headers().size();
        float[] wanted = new float[columns];
        float[] least = new float[columns];
        for (int i = 0; i < columns; i++) {
            measure(table.headers().get(i), bold, wanted, least, i);
            for (List<String> row : table.rows()) {
                measure(i < row.size() ? row.get(i) : "", regular, wanted, least, i);
            }
            wanted[i] += 2 * CELL_PADDING + 1;
            least[i] += 2 * CELL_PADDING + 1;
        }
        float[] widths = new float[columns];
        float wantedTotal = 0;
        float leastTotal = 0;
        for (int i = 0; i < columns; i++) {
            wantedTotal += wanted[i];
            leastTotal += least[i];
        }
        if (wantedTotal <= WIDTH) {
            int widest = 0;
            for (int i = 0; i < columns; i++) {
                widths[i] = wanted[i];
                widest = wanted[i] > wanted[widest] ? i : widest;
            }
            widths[widest] += WIDTH - wantedTotal;
            return widths;
        }
        if (leastTotal > WIDTH) {
            least = capped(least, WIDTH);
            leastTotal = WIDTH;
        }
        float spare = WIDTH - leastTotal;
        float more = 0;
        for (int i = 0; i < columns; i++) {
            more += Math.max(0, wanted[i] - least[i]);
        }
        for (int i = 0; i < columns; i++) {
            widths[i] = least[i] + (more == 0 ? 0 : spare * Math.max(0, wanted[i] - least[i]) / more);
        }
        return widths;
    }

    /**
     * The widths with the widest ones lowered to one common cap so that they add up to {@code total}: the narrow
     * columns (numbers, states, times) keep their words whole, the wide free-text ones give way.
     */
    private static float[] capped(float[] widths, float total) {
        float[] sorted = widths.clone();
        java.util.Arrays.sort(sorted);
        float below = 0;
        float cap = total / widths.length;
        for (int i = 0; i < sorted.length; i++) {
            float candidate = (total - below) / (sorted.length - i);
            if (sorted[i] >= candidate) {
                cap = candidate;
                break;
            }
            below += sorted[i];
        }
        float[] result = new float[widths.length];
        for (int i = 0; i < widths.length; i++) {
            result[i] = Math.min(widths[i], cap);
        }
        return result;
    }

    /** Widens column {@code i}'s wanted width to the text's longest line and its least width to its longest word. */
    private void measure(String text, PDFont font, float[] wanted, float[] least, int i) throws IOException {
        wanted[i] = Math.max(wanted[i], longest(clean(text).split("\n", -1), font));
        least[i] = Math.max(least[i], Math.min(LONGEST_UNBROKEN, longest(clean(text).split("\\s+"), font)));
    }

    private float longest(String[] parts, PDFont font) throws IOException {
        float longest = 0;
        for (String part : parts) {
            longest = Math.max(longest, width(part, font, CELL_FONT));
        }
        return longest;
    }


    /**
     * One row per attempt, then one per redrive marker, then the breaks of the axis (a pale band across the rows with
     * how long nothing happened there), then the first and last moment.
     */
    private void timeline(Timeline timeline, ReportTime time) throws IOException {
        float left = MARGIN + 60;
        float plot = TIMELINE_PLOT;
        ReportTimelineAxis axis = axis(timeline);
        need(timelineHeight(timeline));
        float top = y;
        float rows = timeline.bars().size() * 16;
        content.setNonStrokingColor(new Color(0xea, 0xee, 0xf2));
        for (BrokenTimeAxis.Break gap : axis.breaks()) {
            content.addRect(left + (float) (gap.fromX() + gap.toX()) / 2 - 2, top + 12 - rows, 4, rows);
            content.fill();
        }
        content.setNonStrokingColor(Color.BLACK);
        for (Bar bar : timeline.bars()) {
            show(bar.label(), regular, 8, MARGIN, y);
            Color color = Color.decode(ReportTimelineAxis.color(bar.outcome()));
            content.setNonStrokingColor(color);
            content.addRect(left + (float) axis.x(bar.start()), y - 2, (float) axis.width(bar.start(), bar.end()), 10);
            content.fill();
            content.setNonStrokingColor(Color.BLACK);
            show(bar.outcome(), regular, 7, left + plot + 8, y);
            y -= 16;
        }
        for (Marker marker : timeline.markers()) {
            float x = left + (float) axis.x(marker.at());
            content.setStrokingColor(new Color(0x09, 0x69, 0xda));
            content.setLineDashPattern(new float[]{3, 2}, 0);
            content.moveTo(x, top + 10);
            content.lineTo(x, y + 10);
            content.stroke();
            content.setLineDashPattern(new float[]{}, 0);
            show(marker.label(), regular, 7, Math.min(x + 2, left + plot - 60), y);
            y -= 10;
        }
        if (!axis.breaks().isEmpty()) {
            for (BrokenTimeAxis.Break gap : axis.breaks()) {
                String mark = "≈ " + ReportTimelineAxis.idle(gap);
                float middle = left + (float) (gap.fromX() + gap.toX()) / 2;
                show(mark, regular, 7, Math.max(left, middle - width(mark, regular, 7) / 2), y);
            }
            y -= 10;
        }
        show(time.format(timeline.from()) + "  ->  " + time.format(timeline.to()), regular, 7, left, y);
        y -= 12;
    }

    /** Attempt starts 16 points apart can be told apart by their bars. */
    private static ReportTimelineAxis axis(Timeline timeline) {
        return new ReportTimelineAxis(timeline, TIMELINE_PLOT, 16);
    }

    private static float timelineHeight(Timeline timeline) {
        return timeline.bars().size() * 16 + timeline.markers().size() * 10
                + (axis(timeline).breaks().isEmpty() ? 0 : 10) + 30;
    }

    private void text(String text, PDFont font, float size, float indent) throws IOException {
        for (String line : wrap(text, font, size, WIDTH - indent)) {
            need(size + 4);
            show(line, font, size, MARGIN + indent, y);
            y -= size + 3;
        }
    }

    private void show(String text, PDFont font, float size, float x, float atY) throws IOException {
        content.beginText();
        content.setFont(font, size);
        content.newLineAtOffset(x, atY);
        String line = clean(text);
        int start = 0;
        while (start < line.length()) {
            boolean missing = !drawable(line.codePointAt(start));
            int end = start;
            while (end < line.length() && drawable(line.codePointAt(end)) != missing) {
                end += Character.charCount(line.codePointAt(end));
            }
            String run = line.substring(start, end);
            if (missing) {
                content.beginMarkedContent(SPAN, actualText(run));
                content.showText(substitutes(run));
                content.endMarkedContent();
            } else {
                content.showText(run);
            }
            start = end;
        }
        content.endText();
    }

    /** Marked-content properties telling text extraction and copy-paste what a run of substitutes stands for. */
    private static PDPropertyList actualText(String run) {
        COSDictionary properties = new COSDictionary();
        properties.setItem(COSName.ACTUAL_TEXT, new COSString(run));
        return PDPropertyList.create(properties);
    }

    private List<String> wrap(String text, PDFont font, float size, float width) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String paragraph : clean(text).split("\n", -1)) {
            StringBuilder line = new StringBuilder();
            for (String word : paragraph.split(" ", -1)) {
                String candidate = line.length() == 0 ? word : line + " " + word;
                if (width(candidate, font, size) <= width) {
                    line.setLength(0);
                    line.append(candidate);
                    continue;
                }
                if (line.length() > 0) {
                    lines.add(line.toString());
                    line.setLength(0);
                }
                while (width(word, font, size) > width) {
                    int cut = fitting(word, font, size, width);
                    lines.add(word.substring(0, cut));
                    word = word.substring(cut);
                }
                line.append(word);
            }
            lines.add(line.toString());
        }
        return lines;
    }

    /** How many chars of the word fit the width: at least one character, never half of a surrogate pair. */
    private int fitting(String word, PDFont font, float size, float width) throws IOException {
        int cut = Character.charCount(word.codePointAt(0));
        while (cut < word.length()) {
            int next = cut + Character.charCount(word.codePointAt(cut));
            if (width(word.substring(0, next), font, size) > width) {
                break;
            }
            cut = next;
        }
        return cut;
    }

    private float width(String text, PDFont font, float size) throws IOException {
        return font.getStringWidth(substitutes(text)) / 1000 * size;
    }

    /** The text as drawn: every character the fonts have no glyph for becomes the substitute. */
    private String substitutes(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> out.appendCodePoint(drawable(c) ? c : SUBSTITUTE));
        return out.toString();
    }

    /** Tabs become spaces and other control characters a space; a null text is empty. */
    private static String clean(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c == '\n') {
                out.append('\n');
            } else if (c == '\t') {
                out.append("    ");
            } else if (Character.isISOControl(c)) {
                out.append(' ');
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private boolean drawable(int codePoint) {
        return drawable.computeIfAbsent(codePoint, c -> encodes(regular, c) && encodes(bold, c));
    }

    private static boolean encodes(PDFont font, int codePoint) {
        try {
            font.encode(new String(Character.toChars(codePoint)));
            return true;
        } catch (IllegalArgumentException | IOException e) {
            return false;
        }
    }

    private void need(float height) throws IOException {
        if (y - height < MARGIN) {
            newPage();
        }
    }

    private void newPage() throws IOException {
        if (content != null) {
            content.close();
        }
        PDPage page = new PDPage(PDRectangle.A4);
        pdf.addPage(page);
        content = new PDPageContentStream(pdf, page);
        y = PDRectangle.A4.getHeight() - MARGIN;
    }
}
