package dev.redrive.report;

import dev.redrive.report.ReportDocument.Bar;
import dev.redrive.report.ReportDocument.Marker;
import dev.redrive.report.ReportDocument.Section;
import dev.redrive.report.ReportDocument.Timeline;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** A report's timeline of attempts seconds apart and a redrive an hour later, drawn as the console draws it. */
class ReportTimelineTest {
    private static final Instant T0 = Instant.parse("2026-11-30T22:31:04.118Z");
    private static final Pattern BAR = Pattern.compile("<rect x=\"([0-9.]+)\" y=\"\\d+\" width=\"([0-9.]+)\" height=\"16\"");

    /** Four rate-limited attempts within 5 s, then a redrive an hour later that succeeds. */
    private static Timeline spreadOverAnHour() {
        List<Bar> bars = new ArrayList<>();
        Instant start = T0;
        for (int attempt = 1; attempt <= 4; attempt++) {
            bars.add(new Bar("attempt " + attempt, start, start.plusMillis(250), attempt == 4 ? "DEAD_LETTERED" : "RETRY_SCHEDULED",
                    "RATE_LIMITED: 429"));
            start = start.plusMillis(1_250);
        }
        Instant redrive = T0.plus(Duration.ofHours(1));
        bars.add(new Bar("attempt 5", redrive.plusMillis(40), redrive.plusMillis(320), "SUCCEEDED", "SUCCEEDED"));
        return new Timeline(T0, redrive.plusMillis(320), bars, List.of(new Marker(redrive, "redrive by alice")));
    }

    private static ReportDocument document(Timeline timeline) {
        return new ReportDocument("Operation run-1:charge:0", List.of(),
                List.of(new Section("Attempts", 1, List.of(timeline))), new ReportTime(ZoneOffset.UTC));
    }

    @Test
    void html_drawsEveryAttemptApart_onABrokenAxis_markingTheIdleHour() {
        String html = ReportHtml.render(document(spreadOverAnHour()));

        List<double[]> bars = new ArrayList<>();
        Matcher bar = BAR.matcher(html);
        while (bar.find()) {
            bars.add(new double[]{Double.parseDouble(bar.group(1)), Double.parseDouble(bar.group(2))});
        }
        assertThat(bars).hasSize(5);
        assertThat(bars.get(0)[0]).as("the axis starts at the first attempt").isEqualTo(90);
        for (int i = 1; i < bars.size(); i++) {
            assertThat(bars.get(i)[0] - bars.get(i - 1)[0]).as("attempt %d starts apart from attempt %d", i + 1, i)
                    .isGreaterThanOrEqualTo(30);
            assertThat(bars.get(i)[0]).as("attempt %d starts after attempt %d ends", i + 1, i)
                    .isGreaterThanOrEqualTo(bars.get(i - 1)[0] + bars.get(i - 1)[1]);
        }
        assertThat(html).contains("class=\"axis-break\"", "≈ 59 min 56 s idle",
                "axis broken: 59 min 56 s idle between 2026-11-30 22:31:08.118 UTC and 2026-11-30 23:31:04.118 UTC");
    }

    @Test
    void pdf_marksTheIdleHourOnItsAxis() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        PdfReport.render(document(spreadOverAnHour()), out);

        try (PDDocument pdf = Loader.loadPDF(out.toByteArray())) {
            assertThat(new PDFTextStripper().getText(pdf)).contains("≈ 59 min 56 s idle", "attempt 5", "redrive by alice");
        }
    }

    @Test
    void attemptsSecondsApart_stayOnALinearAxis() {
        Timeline steady = new Timeline(T0, T0.plusSeconds(3), List.of(
                new Bar("attempt 1", T0, T0.plusSeconds(1), "RETRY_SCHEDULED", "TRANSIENT"),
                new Bar("attempt 2", T0.plusSeconds(2), T0.plusSeconds(3), "SUCCEEDED", "SUCCEEDED")), List.of());

        ReportTimelineAxis axis = new ReportTimelineAxis(steady, 900, 30);

        assertThat(axis.breaks()).isEmpty();
        assertThat(axis.x(T0.plusSeconds(2))).isEqualTo(600);
        assertThat(ReportHtml.render(document(steady))).doesNotContain("axis-break");
    }
}
