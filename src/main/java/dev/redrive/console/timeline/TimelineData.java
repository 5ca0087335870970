package dev.redrive.console.timeline;

import java.time.Instant;
import java.util.List;

/** What an {@link AttemptTimeline} shows: the attempts, oldest first, and when the operation entered the DLQ. */
public record TimelineData(List<TimelineAttempt> attempts, Instant deadLetteredAt) {
    public static final TimelineData EMPTY = new TimelineData(List.of(), null);

    public TimelineData {
        attempts = List.copyOf(attempts);
    }
}
