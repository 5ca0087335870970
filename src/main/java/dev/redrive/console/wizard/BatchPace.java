package dev.redrive.console.wizard;

import dev.redrive.triage.decision.durable.DurableBatch;

import java.util.Locale;

/** " · 48 items/s · 18 s left": how fast a batch in the wizard goes, from what it did since it started. */
final class BatchPace {
    private BatchPace() {
    }

    static String line(int done, int total, long elapsedNanos) {
        if (done <= 0 || elapsedNanos <= 0) {
            return "";
        }
        double rate = done / (elapsedNanos / 1e9);
        int left = Math.max(0, total - done);
        return String.format(Locale.ROOT, " · %,.0f items/s", rate)
                + (left == 0 ? "" : " · " + DurableBatch.duration(left / rate) + " left");
    }
}
