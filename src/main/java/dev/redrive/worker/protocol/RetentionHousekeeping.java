package dev.redrive.worker.protocol;

import dev.redrive.store.Jdbc;
import dev.redrive.store.StoreException;
import dev.redrive.store.deadletter.EvidencePurge;
import dev.redrive.store.deadletter.PurgeSummary;
import dev.redrive.store.deadletter.RetentionPolicy;
import dev.redrive.store.deadletter.RetentionPolicyStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Optional;

/**
 * Applies the namespace's retention policy from a worker's scheduler: the evidence of entries decided longer ago than
 * the policy keeps it is purged, a few chunks per round (about a second's work) so that a large first purge never
 * holds the scheduler, which also promotes due retries, for long; what is left, the next round takes (some 700,000
 * entries a day at the default interval; {@code dlq purge} takes a backlog at once). Several workers may run it at once: each chunk
 * skips the rows another one holds.
 */
final class RetentionHousekeeping {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionHousekeeping.class);
    /** Who the audit names for a purge the policy made. */
    static final String ACTOR = "retention policy";
    private static final long MAX_ENTRIES_PER_ROUND = 5L * EvidencePurge.CHUNK;

    private final RetentionPolicyStore policies;
    private final EvidencePurge purge;
    private final String consumerName;

    RetentionHousekeeping(Jdbc jdbc, String consumerName) {
        this.policies = new RetentionPolicyStore(jdbc);
        this.purge = new EvidencePurge(jdbc);
        this.consumerName = consumerName;
    }

    void apply(Instant now) {
        try {
            RetentionPolicy policy = policies.read();
            Optional<Instant> before = policy.purgeBefore(now);
            if (before.isEmpty()) {
                return;
            }
            PurgeSummary done = purge.purge(before.get(), ACTOR, now, EvidencePurge.CHUNK, MAX_ENTRIES_PER_ROUND);
            if (done.entries() > 0) {
                LOG.info("{}: retention purged the evidence of {} DLQ entries decided before {} ({} bytes, purge {})",
                        consumerName, done.entries(), done.decidedBefore(), done.bytes(), done.purgeId());
            }
        } catch (StoreException e) {
            // A worker whose login may not purge (only the schema owner may) keeps working; the policy waits for one
            // that may.
            LOG.warn("{}: applying the retention policy failed: {}", consumerName, e.getMessage());
        }
    }
}
