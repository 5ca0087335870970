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
    public RetentionPolicy {
        if (keepEvidence != null && keepEvidence.toSeconds() < 1) {
            throw new IllegalArgumentException("evidence must be kept at least one second, got " + keepEvidence);
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
