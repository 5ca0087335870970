package dev.redrive.store.deadletter;

import dev.redrive.model.TypedDuration;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long a namespace's decided DLQ entries keep their evidence (raw message, payload, attempt and delivery
 * history) before a worker's housekeeping purges it. Open entries always keep theirs.
 *
 * @param keepEvidence how long after its decision an entry keeps its evidence; null = until {@code dlq purge}
 * @param changedBy    the name typed by whoever changed it last (null: never changed); {@code changedLogin} is their login
 */
public record RetentionPolicy(Duration keepEvidence, String changedBy, String changedLogin, Instant changedAt) {
    private static final Duration SHORTEST = Duration.ofHours(1);
    private static final Duration LONGEST = Duration.ofDays(36_500);

    public RetentionPolicy {
        // A typo must not purge evidence minutes after its decision, nor overflow a timestamp.
        if (keepEvidence != null && (keepEvidence.compareTo(SHORTEST) < 0 || keepEvidence.compareTo(LONGEST) > 0)) {
            throw new IllegalArgumentException("retention keeps evidence at least 1h and at most 36500d, got "
                    + TypedDuration.text(keepEvidence));
        }
    }

    /** The policy as an operator sets it; who changed it and when is recorded by the store. */
    public static RetentionPolicy keeping(Duration keepEvidence) {
        return new RetentionPolicy(keepEvidence, null, null, null);
    }

    public static final RetentionPolicy OFF = keeping(null);

    public Optional<Duration> keep() {
        return Optional.ofNullable(keepEvidence);
    }

    /** Where the housekeeping purges up to at {@code now}: entries decided before it. */
    public Optional<Instant> purgeBefore(Instant now) {
        return keep().map(now::minus);
    }

    public String describe() {
        return keepEvidence == null
                ? "retention off: decided entries keep their evidence until dlq purge removes it"
                : "retention on: decided entries keep their evidence for " + TypedDuration.text(keepEvidence)
                        + ", then a worker purges it";
    }
}
