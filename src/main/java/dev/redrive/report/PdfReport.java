package dev.redrive.report;

import com.openhtmltopdf.extend.FSTextBreaker;
import com.openhtmltopdf.outputdevice.helper.BaseRendererBuilder.FontStyle;
import com.openhtmltopdf.pdfboxout.PdfRendererBuilder;
import com.openhtmltopdf.svgsupport.BatikSVGDrawer;
import com.openhtmltopdf.svgsupport.BatikSVGDrawer.SvgExternalResourceMode;
import com.openhtmltopdf.svgsupport.BatikSVGDrawer.SvgScriptMode;
import com.openhtmltopdf.util.XRLog;
import org.apache.fontbox.ttf.CmapLookup;
import org.apache.fontbox.ttf.TTFParser;
import org.apache.fontbox.ttf.TrueTypeFont;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.RandomAccessReadBuffer;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTML report's page laid out on A4 by openhtmltopdf, in DejaVu Sans (bundled, embedded as a subset), which covers
 * Latin, Greek, Cyrillic, arrows, math signs and much more. A character it has no glyph for (CJK, most emoji) is drawn
 * as U+FFFD, and {@link ActualText} tells text extraction and copy-paste the real character, so the report still
 * renders and its text is still the original.
 */
final class PdfReport {
    private static final String FAMILY = "DejaVu Sans";
    private static final byte[] REGULAR = font("/fonts/DejaVuSans.ttf");
    private static final byte[] BOLD = font("/fonts/DejaVuSans-Bold.ttf");
    private static final Glyphs GLYPHS = new Glyphs(REGULAR, BOLD);
    private static final char SUBSTITUTE = '\uFFFD';

    static {
        // openhtmltopdf logs each layout's progress, and the screen-only CSS it skips, through java.util.logging, to
        // the CLI's stderr: a report is quiet, and a failure still comes as an exception.
        XRLog.setLoggingEnabled(false);
    }

    private PdfReport() {
    }

    static void render(ReportDocument document, OutputStream out) {
        Document page = parse(ReportHtml.render(document));
        List<String> substituted = new ArrayList<>();
        substitute(page.getDocumentElement(), substituted);
        try (PDDocument pdf = Loader.loadPDF(layout(page))) {
            ActualText.mark(pdf, substituted);
            PDDocumentInformation info = pdf.getDocumentInformation();
            info.setTitle(document.title());
            info.setCreator("Redrive");
            pdf.save(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the PDF report: " + e.getMessage(), e);
        }
    }

    /** The page on A4, fonts embedded; its SVG drawn as vectors, with no script and nothing fetched. */
    private static byte[] layout(Document page) throws IOException {
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        new PdfRendererBuilder()
                .withW3cDocument(page, null)
                .useFont(() -> new ByteArrayInputStream(REGULAR), FAMILY, 400, FontStyle.NORMAL, true)
                .useFont(() -> new ByteArrayInputStream(BOLD), FAMILY, 700, FontStyle.NORMAL, true)
                .useSVGDrawer(new BatikSVGDrawer(SvgScriptMode.SECURE, SvgExternalResourceMode.SECURE))
                .useUnicodeLineBreaker(new SpaceBreaker())
                .withProducer("Redrive")
                .toStream(pdf)
                .run();
        return pdf.toByteArray();
    }

    /**
     * Every character of the page's text that a font lacks becomes U+FFFD, in both weights alike (so the glyph drawn is
     * the same whatever the text's weight), and {@code substituted} gets, in the order they are drawn, the text each
     * U+FFFD of the page stands for. The SVG is left alone: its text is drawn into a form of its own, which extraction
     * reads apart from the page.
     */
    private static void substitute(Node node, List<String> substituted) {
        if (node.getNodeType() == Node.ELEMENT_NODE && List.of("head", "svg").contains(node.getLocalName())) {
            return;
        }
        if (node.getNodeType() == Node.TEXT_NODE) {
            StringBuilder drawn = new StringBuilder();
            node.getNodeValue().codePoints().forEach(c -> {
                if (c == SUBSTITUTE || !GLYPHS.drawable(c)) {
                    substituted.add(Character.toString(c));
                    drawn.append(SUBSTITUTE);
                } else {
                    drawn.appendCodePoint(c);
                }
            });
            node.setNodeValue(drawn.toString());
        }
        for (Node child = node.getFirstChild(); child != null; child = child.getNextSibling()) {
            substitute(child, substituted);
        }
    }

    private static Document parse(String xhtml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xhtml)));
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalStateException("the report's page is not well-formed XHTML: " + e.getMessage(), e);
        }
    }

    private static byte[] font(String resource) {
        try (InputStream in = PdfReport.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the font " + resource + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Lines break at white space only. openhtmltopdf also breaks after {@code - : . /}, which cut operation ids,
     * UUIDs and times in two where a column is narrow: kept whole they read, and extract, as written. A word too long
     * for its column is still cut, by {@code word-wrap} in report.css.
     */
    private static final class SpaceBreaker implements FSTextBreaker {
        private static final Pattern SPACES = Pattern.compile("\\s+");
        private Matcher spaces;

        @Override
        public void setText(String text) {
            spaces = SPACES.matcher(text);
        }

        @Override
        public int next() {
            return spaces.find() ? spaces.end() : -1;
        }
    }

    /** Which characters both weights of the font have a glyph for; white space is always drawable (as space). */
    private static final class Glyphs {
        /** Read once, when the fonts are parsed: after that a look-up only reads a map, from any thread. */
        private final List<CmapLookup> lookups = new ArrayList<>();

        Glyphs(byte[]... files) {
            try {
                for (byte[] file : files) {
                    TrueTypeFont font = new TTFParser().parse(new RandomAccessReadBuffer(file));
                    lookups.add(font.getUnicodeCmapLookup());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        boolean drawable(int codePoint) {
            return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint)
                    || lookups.stream().allMatch(lookup -> lookup.getGlyphId(codePoint) != 0);
        }
    }
}
