package dev.redrive.console.timeline;

import java.time.Duration;
import java.time.Instant;

/**
 * One attempt as the timeline draws it.
 *
 * @param outcome        SUCCEEDED, RETRY_SCHEDULED or DEAD_LETTERED
 * @param errorClass     the failure class name, null for a success
 * @param finishedAt     null while the attempt has not finished (drawn up to its start + a sliver)
 * @param retryAfter     what the tool asked for with Retry-After, null when it did not
 * @param nextEligibleAt when the retry was due, null when none was scheduled
 */
public record TimelineAttempt(int attempt, Instant startedAt, Instant finishedAt, String outcome, String errorClass,
                              String errorMessage, Duration retryAfter, Instant nextEligibleAt) {

    public Instant endOrStart() {
        return finishedAt != null ? finishedAt : startedAt;
    }

    public boolean succeeded() {
        return "SUCCEEDED".equals(outcome);
    }
}
