package dev.redrive.report;

import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdfparser.PDFStreamParser;
import org.apache.pdfbox.pdfwriter.ContentStreamWriter;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDStream;
import org.apache.pdfbox.pdmodel.font.PDFont;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Puts the real text back behind the U+FFFD glyphs a PDF report draws for characters its font lacks: each run of them
 * goes into a marked-content span whose /ActualText holds the characters, which text extraction and copy-paste give in
 * place of the glyphs. openhtmltopdf has no such notion, so this reads the laid-out pages' text operators, in the order
 * they draw the page's text, which is the order of the characters it was given.
 */
final class ActualText {
    private static final COSName SPAN = COSName.getPDFName("Span");
    private static final String SUBSTITUTE = "\uFFFD";

    private ActualText() {
    }

    /** @param substituted what each U+FFFD drawn on the pages stands for, in the order they are drawn */
    static void mark(PDDocument pdf, List<String> substituted) throws IOException {
        Iterator<String> originals = substituted.iterator();
        for (PDPage page : pdf.getPages()) {
            if (!originals.hasNext()) {
                return;
            }
            mark(pdf, page, originals);
        }
    }

    private static void mark(PDDocument pdf, PDPage page, Iterator<String> originals) throws IOException {
        List<Object> tokens = new ArrayList<>();
        List<COSBase> operands = new ArrayList<>();
        Map<COSName, PDFont> fonts = new HashMap<>();
        PDFont font = null;
        boolean marked = false;
        for (Object token : new PDFStreamParser(page).parse()) {
            if (!(token instanceof Operator operator)) {
                operands.add((COSBase) token);
                continue;
            }
            if (operator.getName().equals("Tf") && operands.get(0) instanceof COSName name) {
                font = fonts.computeIfAbsent(name, key -> resource(page, key));
            }
            List<Object> shown = operator.getName().equals("Tj") && font != null
                    && operands.get(0) instanceof COSString text ? spans(font, text, originals) : null;
            if (shown == null) {
                tokens.addAll(operands);
                tokens.add(operator);
            } else {
                tokens.addAll(shown);
                marked = true;
            }
            operands.clear();
        }
        if (marked) {
            PDStream content = new PDStream(pdf);
            try (OutputStream out = content.createOutputStream(COSName.FLATE_DECODE)) {
                new ContentStreamWriter(out).writeTokens(tokens);
            }
            page.setContents(content);
        }
    }

    /**
     * The text shown as runs, each run of substitutes in a span with its real text; null when the text has no
     * substitute, so that the operator is kept as it was.
     */
    private static List<Object> spans(PDFont font, COSString text, Iterator<String> originals) throws IOException {
        byte[] bytes = text.getBytes();
        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        List<Object> tokens = new ArrayList<>();
        StringBuilder actual = new StringBuilder();
        int runStart = 0;
        boolean inSubstitutes = false;
        while (in.available() > 0) {
            int start = bytes.length - in.available();
            boolean substitute = SUBSTITUTE.equals(font.toUnicode(font.readCode(in))) && originals.hasNext();
            if (substitute != inSubstitutes && start > runStart) {
                show(tokens, bytes, runStart, start, inSubstitutes ? actual.toString() : null);
                actual.setLength(0);
                runStart = start;
            }
            inSubstitutes = substitute;
            if (substitute) {
                actual.append(originals.next());
            }
        }
        if (tokens.isEmpty() && !inSubstitutes) {
            return null;
        }
        show(tokens, bytes, runStart, bytes.length, inSubstitutes ? actual.toString() : null);
        return tokens;
    }

    private static void show(List<Object> tokens, byte[] bytes, int from, int to, String actual) {
        if (actual != null) {
            COSDictionary properties = new COSDictionary();
            properties.setString(COSName.ACTUAL_TEXT, actual);
            tokens.add(SPAN);
            tokens.add(properties);
            tokens.add(Operator.getOperator("BDC"));
        }
        tokens.add(new COSString(Arrays.copyOfRange(bytes, from, to)));
        tokens.add(Operator.getOperator("Tj"));
        if (actual != null) {
            tokens.add(Operator.getOperator("EMC"));
        }
    }

    private static PDFont resource(PDPage page, COSName name) {
        try {
            return page.getResources().getFont(name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the font " + name.getName() + " of a report page", e);
        }
    }
}
