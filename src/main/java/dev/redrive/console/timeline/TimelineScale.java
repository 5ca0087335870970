package dev.redrive.console.timeline;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps instants of a {@link TimelineData} onto a horizontal pixel range: the earliest start on the left, the latest
 * moment (finish, retry due, DLQ) on the right, with a small margin. Pure arithmetic, no toolkit.
 */
public final class TimelineScale {
    private static final double MARGIN = 0.04;

    private final Instant origin;
    private final double spanMillis;
    private final double left;
    private final double width;

    private TimelineScale(Instant origin, double spanMillis, double left, double width) {
        this.origin = origin;
        this.spanMillis = spanMillis;
        this.left = left;
        this.width = width;
    }

    public static TimelineScale of(TimelineData data, double left, double width) {
        Instant first = null;
        Instant last = null;
        for (TimelineAttempt attempt : data.attempts()) {
            first = min(first, attempt.startedAt());
            last = max(last, attempt.endOrStart());
            if (attempt.nextEligibleAt() != null) {
                last = max(last, attempt.nextEligibleAt());
            }
            if (attempt.retryAfter() != null) {
                last = max(last, attempt.endOrStart().plus(attempt.retryAfter()));
            }
        }
        if (data.deadLetteredAt() != null) {
            first = min(first, data.deadLetteredAt());
            last = max(last, data.deadLetteredAt());
        }
        if (first == null) {
            first = Instant.EPOCH;
            last = Instant.EPOCH.plusSeconds(1);
        }
        double span = Math.max(1, Duration.between(first, last).toMillis());
        double padded = span * (1 + 2 * MARGIN);
        Instant origin = first.minusMillis((long) (span * MARGIN));
        return new TimelineScale(origin, padded, left, width);
    }

    public double x(Instant instant) {
        return left + Duration.between(origin, instant).toMillis() / spanMillis * width;
    }

    /** The pixel width between two instants, never less than {@code minimum}. */
    public double width(Instant from, Instant to, double minimum) {
        return Math.max(minimum, x(to) - x(from));
    }

    public Instant origin() {
        return origin;
    }

    /** {@code count} evenly spaced instants across the range, for axis labels. */
    public List<Instant> ticks(int count) {
        List<Instant> ticks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ticks.add(origin.plusMillis((long) (spanMillis * i / Math.max(1, count - 1))));
        }
        return ticks;
    }

    private static Instant min(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    private static Instant max(Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }
}
