package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.operation.OperationFacts;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.RetryQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Re-publishes what Redis may have lost: every state change lands in PostgreSQL first, so an operation that waited
 * past the grace period without a worker touching it gets its dispatch (or its retry-set member) again. A duplicate
 * this creates is answered from the facts like any other redelivery.
 */
final class StrandedSweep {
    private static final Logger LOG = LoggerFactory.getLogger(StrandedSweep.class);
    private static final int BATCH = 500;
    /** How long a publisher may take between recording an operation and adding its dispatch to the stream. */
    private static final Duration PUBLISH_MARGIN = Duration.ofSeconds(1);

    private final OperationStore store;
    private final RetryQueue retryQueue;
    private final WorkerClient client;
    private final Duration grace;

    StrandedSweep(OperationStore store, RetryQueue retryQueue, WorkerClient client, Duration grace) {
        this.store = store;
        this.retryQueue = retryQueue;
        this.client = client;
        this.grace = grace;
    }

    /**
     * Publishes again what waited past the grace period, but only what waited since before the backlog's horizon: an
     * operation whose dispatch may still be in the stream, unread or pending with a live worker, is not stranded but
     * queued, and a copy of it would only lengthen the queue (which, for a backlog longer than the grace period, would
     * feed on itself).
     *
     * @param oldestUndone the time of the oldest dispatch still unread or pending, if any
     * @return how many operations were re-published
     */
    int sweep(Instant now, Optional<Instant> oldestUndone) {
        Instant graceEnd = now.minus(grace);
        Instant stuckBefore = oldestUndone.filter(graceEnd::isAfter).orElse(graceEnd);
        return publishAgain(store.sweepStranded(stuckBefore, graceEnd, now, false, BATCH), now);
    }

    /**
     * After Redis lost its data: publishes again, at once, everything PostgreSQL says is waiting for a worker (pending,
     * running under an expired lease, every scheduled retry), not only what waited past the grace period; but not what
     * the stream still holds. A stream that survived (the marker alone was missing: a namespace's first worker, or an
     * upgrade) or was refilled since keeps its unread and pending dispatches, so only what was recorded more than
     * {@link #PUBLISH_MARGIN} before the oldest of those is published again. (A retry published twice is one member of
     * the retry set.)
     *
     * @param oldestUndone the time of the oldest dispatch still unread or pending, if any
     * @return how many operations were re-published
     */
    int recover(Instant now, Optional<Instant> oldestUndone) {
        Instant stuckBefore = oldestUndone.map(oldest -> oldest.minus(PUBLISH_MARGIN)).orElse(now);
        int total = 0;
        int swept;
        do {
            swept = publishAgain(store.sweepStranded(stuckBefore, now, now, true, BATCH), now);
            total += swept;
        } while (swept == BATCH);
        if (total > 0) {
            LOG.warn("the namespace's marker was missing from Redis (Redis lost its data, or this is the namespace's "
                    + "first worker): published {} waiting operation(s) again from PostgreSQL", total);
        }
        return total;
    }

    private int publishAgain(List<OperationFacts> stranded, Instant now) {
        List<DispatchEnvelope> retries = new ArrayList<>();
        for (OperationFacts record : stranded) {
            if (record.status() == OperationStatus.RETRY_SCHEDULED && record.nextEligibleAt() != null) {
                retries.add(RetryEnvelopes.fromRecord(record));
            } else {
                client.publish(RetryEnvelopes.of(record, record.attempt(), null, record.lastErrorClass(),
                        record.redriveCommandId(), now));
            }
        }
        retryQueue.schedule(retries);
        if (!stranded.isEmpty()) {
            LOG.info("re-published {} operation(s) that waited for a worker longer than they should", stranded.size());
        }
        return stranded.size();
    }
}
