package dev.redrive.console.timeline;

import dev.redrive.timeline.BrokenTimeAxis;

import java.time.Instant;
import java.util.List;
import java.util.TreeSet;

/** What an {@link AttemptTimeline} shows: the attempts, oldest first, and when the operation entered the DLQ. */
public record TimelineData(List<TimelineAttempt> attempts, Instant deadLetteredAt) {
    public static final TimelineData EMPTY = new TimelineData(List.of(), null);
    /** The room, in pixels, two successive attempt starts need for their "#n" labels. */
    public static final double LABEL_SPACING = 36;

    public TimelineData {
        attempts = List.copyOf(attempts);
    }

    /**
     * The axis these attempts are drawn on between {@code left} and {@code left + width}: broken where nothing happened
     * for long, so every attempt's label has room (the DLQ moment has a row of its own and needs none).
     */
    public BrokenTimeAxis axis(double left, double width) {
        List<Instant> starts = attempts.stream().map(TimelineAttempt::startedAt).toList();
        return BrokenTimeAxis.of(moments(), starts, LABEL_SPACING, left, width);
    }

    /** Every moment the timeline marks, in order, without repeats: the corners of the broken axis. */
    private TreeSet<Instant> moments() {
        TreeSet<Instant> moments = new TreeSet<>();
        for (TimelineAttempt attempt : attempts) {
            moments.add(attempt.startedAt());
            moments.add(attempt.endOrStart());
            if (attempt.nextEligibleAt() != null) {
                moments.add(attempt.nextEligibleAt());
            }
            if (attempt.retryAfter() != null) {
                moments.add(attempt.endOrStart().plus(attempt.retryAfter()));
            }
        }
        if (deadLetteredAt != null) {
            moments.add(deadLetteredAt);
        }
        return moments;
    }
}
