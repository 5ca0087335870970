package dev.redrive.store.deadletter;

import java.time.Instant;

/**
 * What a purge would take: how many decided entries still hold evidence, what it takes, and when the oldest and the
 * newest of them were decided (null when there are none).
 */
public record PurgePreview(Instant decidedBefore, long entries, long bytes, Instant oldestDecision,
                           Instant newestDecision) {
}
