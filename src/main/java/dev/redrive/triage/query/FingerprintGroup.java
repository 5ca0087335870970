package dev.redrive.triage.query;

import dev.redrive.model.FailureClass;

import java.time.Instant;
import java.util.List;

/**
 * The DLQ entries that share one error fingerprint (the same tool failing the same way).
 *
 * @param sampleMessage the normalized error message of the group's newest entry
 * @param openCount     how many entries still wait for a decision
 */
public record FingerprintGroup(
        String fingerprint,
        String tool,
        List<FailureClass> classes,
        String sampleMessage,
        long count,
        long openCount,
        Instant firstSeen,
        Instant lastSeen) {

    public FingerprintGroup {
        classes = List.copyOf(classes);
    }
}
