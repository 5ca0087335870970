package dev.redrive.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The batch's progress line: redrawn in place on a terminal, a line per tenth in a log. */
class ProgressLineTest {
    private final StringWriter written = new StringWriter();
    private final AtomicLong nanos = new AtomicLong();

    @Test
    void onATerminal_theLineIsRedrawnInPlace_atMostTenTimesASecond_andClearedAtTheEnd() {
        ProgressLine progress = new ProgressLine(new PrintWriter(written, true), true, nanos::get);

        nanos.set(1_000_000_000L);
        progress.update(2_500, 10_000);
        nanos.addAndGet(10_000_000L);
        progress.update(2_600, 10_000);
        assertThat(written.toString()).isEqualTo("\r[######------------------] 2,500 of 10,000 · 2,500/s · 3 s left");

        nanos.set(4_000_000_000L);
        progress.update(10_000, 10_000);
        String shown = written.toString();
        String last = "[########################] 10,000 of 10,000 · 2,500/s";
        // Padded to cover what is left of the longer line before it.
        assertThat(shown.substring(shown.lastIndexOf('\r'))).isEqualTo("\r" + last + " ".repeat(10));
        progress.clear();
        assertThat(written.toString()).endsWith("\r" + " ".repeat(last.length()) + "\r");
    }

    @Test
    void inALog_aLineAtEachTenthOfTheWay_andNoCarriageReturn() {
        ProgressLine progress = new ProgressLine(new PrintWriter(written, true), false, nanos::get);

        for (int done = 1; done <= 1_000; done++) {
            nanos.addAndGet(1_000_000L);
            progress.update(done, 1_000);
        }
        progress.clear();

        assertThat(written.toString().lines()).hasSize(10).first().asString()
                .isEqualTo("[##----------------------] 100 of 1,000 · 1,000/s · 1 s left");
        assertThat(written.toString()).doesNotContain("\r");
    }

    @Test
    void aResumedBatch_countsItsRateOverTheItemsDoneSinceItResumed() {
        ProgressLine progress = new ProgressLine(new PrintWriter(written, true), false, nanos::get);
        nanos.set(5_000_000_000L);
        progress.startFrom(300);

        nanos.addAndGet(2_000_000_000L);
        progress.update(340, 400);

        // 40 items in 2 s: 20/s, and 60 left take 3 s (counting the 300 done before would say 170/s).
        assertThat(written.toString().strip()).isEqualTo("[####################----] 340 of 400 · 20/s · 3 s left");
    }
}
