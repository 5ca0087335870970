package dev.redrive.cli;

import dev.redrive.triage.decision.durable.DurableBatch;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A batch's progress on stderr: on a terminal one line redrawn in place at most ten times a second ("[#####-----]
 * 4,200 of 10,000 · 3,100/s · 2 s left"); in a log, where a redrawn line would be noise, a line at every tenth of the
 * way. Cleared (terminal) before the summary is printed.
 */
final class ProgressLine {
    private static final int WIDTH = 24;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintWriter err;
    private final boolean terminal;
    private final LongSupplier nanoTime;
    private long startedAt;
    private long doneBefore;
    private long drawnAt;
    private int tenthsShown;
    private int lastLength;

    ProgressLine(PrintWriter err, boolean terminal, LongSupplier nanoTime) {
        this.err = err;
        this.terminal = terminal;
        this.nanoTime = nanoTime;
        this.startedAt = nanoTime.getAsLong();
        this.drawnAt = startedAt - REDRAW_NANOS;
    }

    /** On the process's stderr: redrawn in place when the process has a terminal. */
    static ProgressLine onStderr(PrintWriter err) {
        return new ProgressLine(err, System.console() != null, System::nanoTime);
    }

    /**
     * Counts the rate from here, over the items done from now on: a resumed batch's items decided before (at another
     * pace, or by another process) are not this run's speed.
     */
    void startFrom(long done) {
        startedAt = nanoTime.getAsLong();
        doneBefore = done;
    }

    void update(long done, long total) {
        long now = nanoTime.getAsLong();
        if (terminal) {
            if (done < total && now - drawnAt < REDRAW_NANOS) {
                return;
            }
            drawnAt = now;
            String line = describe(done, total, now);
            err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            lastLength = line.length();
            err.flush();
        } else {
            int tenths = total <= 0 ? 10 : (int) Math.min(10, done * 10 / total);
            if (tenths > tenthsShown) {
                tenthsShown = tenths;
                err.println(describe(done, total, now));
                err.flush();
            }
        }
    }

    /** Takes the redrawn line away, so that what follows starts on a clean line. */
    void clear() {
        if (terminal && lastLength > 0) {
            err.print("\r" + " ".repeat(lastLength) + "\r");
            err.flush();
            lastLength = 0;
        }
    }

    String describe(long done, long total, long now) {
        int filled = total <= 0 ? WIDTH : (int) Math.min(WIDTH, done * WIDTH / total);
        double seconds = Math.max(1e-9, (now - startedAt) / 1e9);
        double rate = Math.max(0, done - doneBefore) / seconds;
        String left = done >= total || rate <= 0 ? "" : " · " + DurableBatch.duration((total - done) / rate) + " left";
        return String.format(Locale.ROOT, "[%s%s] %,d of %,d · %,.0f/s%s", "#".repeat(filled), "-".repeat(WIDTH - filled),
                done, total, rate, left);
    }
}
