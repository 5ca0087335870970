package dev.redrive.store.deadletter;

import java.time.Instant;

/**
 * What a purge did.
 *
 * @param purgeId the purge's row in {@code evidence_purges}; null when nothing was purged
 * @param bytes   what the purged evidence took, as PostgreSQL counts a column's size
 */
public record PurgeSummary(Long purgeId, Instant decidedBefore, long entries, long bytes) {
}
