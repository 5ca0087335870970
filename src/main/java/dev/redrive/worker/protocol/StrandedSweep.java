package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.operation.OperationRecord;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.RetryQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Re-publishes what Redis may have lost: every state change lands in PostgreSQL first, so an operation that waited
 * past the grace period without a worker touching it gets its dispatch (or its retry-set member) again. A duplicate
 * this creates is answered from the facts like any other redelivery.
 */
final class StrandedSweep {
    private static final Logger LOG = LoggerFactory.getLogger(StrandedSweep.class);
    private static final int BATCH = 500;

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

    /** @return how many operations were re-published */
    int sweep(Instant now) {
        List<OperationRecord> stranded = store.sweepStranded(now, grace, BATCH);
        List<DispatchEnvelope> retries = new ArrayList<>();
        for (OperationRecord record : stranded) {
            if (record.status() == OperationStatus.RETRY_SCHEDULED) {
                retries.add(RetryEnvelopes.fromRecord(record));
            } else {
                client.publish(RetryEnvelopes.of(record, record.attempt(), null, record.lastErrorClass(),
                        record.redriveCommandId(), now));
            }
        }
        retryQueue.schedule(retries);
        if (!stranded.isEmpty()) {
            LOG.info("re-published {} operation(s) that waited more than {} for a worker", stranded.size(), grace);
        }
        return stranded.size();
    }
}
