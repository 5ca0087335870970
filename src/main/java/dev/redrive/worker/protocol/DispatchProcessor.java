package dev.redrive.worker.protocol;

import dev.redrive.RuntimeVersion;
import dev.redrive.broker.DeadLetterStream;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.envelope.InvalidEnvelopeException;
import dev.redrive.model.FailureClass;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Jdbc;
import dev.redrive.store.deadletter.DeadLetterEvent;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.store.deadletter.MessageDeadLetter;
import dev.redrive.store.operation.ClaimRequest;
import dev.redrive.store.operation.Deferral;
import dev.redrive.store.operation.Discard;
import dev.redrive.store.operation.Lease;
import dev.redrive.store.operation.OperationRecord;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.worker.retry.RetryQueue;
import dev.redrive.worker.retry.ToolGate;
import dev.redrive.worker.stream.Delivery;
import dev.redrive.worker.stream.DispatchStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;

/**
 * The per-message protocol, applied to a batch of deliveries at once: validate, load the facts (one query), record
 * unknown operations, decide, write the discards / deferrals (one transaction each), ack what needs no tool call,
 * claim the rest (one statement) and hand each claimed attempt to the tool pool.
 */
final class DispatchProcessor {
    private static final Logger LOG = LoggerFactory.getLogger(DispatchProcessor.class);

    private final WorkerSettings settings;
    private final EnvelopeCodec codec;
    private final OperationStore store;
    private final OperationRegistry registry;
    private final DeadLetterStore deadLetters;
    private final DeadLetterStream deadLetterStream;
    private final RetryQueue retryQueue;
    private final DispatchStream stream;
    private final InFlight inFlight;
    private final AttemptRunner runner;
    private final Committer committer;
    private final DeliveryHistory history;
    private final ExecutorService tools;

    DispatchProcessor(WorkerSettings settings, Jdbc jdbc, DeadLetterStream deadLetterStream, RetryQueue retryQueue,
                      DispatchStream stream, InFlight inFlight, AttemptRunner runner, Committer committer,
                      DeliveryHistory history, ExecutorService tools) {
        this.settings = settings;
        this.codec = new EnvelopeCodec(settings.maxPayloadBytes());
        this.store = new OperationStore(jdbc);
        this.registry = new OperationRegistry(jdbc);
        this.deadLetters = new DeadLetterStore(jdbc);
        this.deadLetterStream = deadLetterStream;
        this.retryQueue = retryQueue;
        this.stream = stream;
        this.inFlight = inFlight;
        this.runner = runner;
        this.committer = committer;
        this.history = history;
        this.tools = tools;
    }

    private record Incoming(Delivery delivery, DispatchEnvelope envelope) {
    }

    private record Decided(Incoming incoming, OperationRecord record, boolean poison) {
    }

    void process(List<Delivery> deliveries) {
        if (deliveries.isEmpty()) {
            return;
        }
        Instant now = now();
        List<String> acks = new ArrayList<>();
        List<Incoming> valid = new ArrayList<>();
        List<MessageDeadLetter> invalid = new ArrayList<>();
        for (Delivery delivery : deliveries) {
            if (delivery.fields().isEmpty()) {
                acks.add(delivery.entryId());
                continue;
            }
            try {
                valid.add(new Incoming(delivery, codec.decode(delivery.fields())));
            } catch (InvalidEnvelopeException e) {
                invalid.add(new MessageDeadLetter(delivery.stream(), delivery.entryId(), delivery.deliveryCount(),
                        delivery.consumer(), delivery.fields(), FailureClass.INVALID_INPUT, "invalid_envelope",
                        e.getMessage(), RuntimeVersion.wireValue(), now));
            }
        }
        deadLetterInvalid(invalid, acks);

        Map<String, OperationRecord> records = loadOrRecord(valid);
        List<Discard> discards = new ArrayList<>();
        List<Deferral> deferrals = new ArrayList<>();
        List<DispatchEnvelope> notDue = new ArrayList<>();
        List<DeadLetterEvent> reannounce = new ArrayList<>();
        Map<String, Decided> toClaim = new LinkedHashMap<>();
        for (Incoming incoming : valid) {
            String operationId = incoming.envelope().operationId().value();
            OperationRecord record = records.get(operationId);
            String entryId = incoming.delivery().entryId();
            String localEntry = inFlight.entryOf(operationId);
            Decided already = toClaim.get(operationId);
            if (entryId.equals(localEntry) || already != null && already.incoming().delivery().entryId().equals(entryId)) {
                continue;
            }
            if (localEntry != null && !heldHere(record)) {
                // The attempt in flight here has been settled meanwhile (a commit, or another worker that took the
                // lease over): this delivery may be the retry that settlement scheduled. It is neither a duplicate to
                // discard nor claimable while the old attempt holds the slot, so it stays pending for a re-claim.
                continue;
            }
            if (localEntry != null || already != null) {
                discards.add(discard(incoming, "another delivery of this operation is being handled by "
                        + settings.consumerName(), false, false));
                acks.add(entryId);
                continue;
            }
            Verdict verdict = Eligibility.decide(incoming.envelope(), record, incoming.delivery(), now,
                    settings.deliveryLimit());
            if (verdict instanceof Verdict.AlreadySucceeded) {
                acks.add(entryId);
            } else if (verdict instanceof Verdict.Discard d) {
                discards.add(discard(incoming, d.reason(), d.cancelOperation(), d.failCommand()));
                repair(d.repair(), record, notDue, reannounce);
                acks.add(entryId);
            } else if (verdict instanceof Verdict.Duplicate d) {
                if (d.ack()) {
                    discards.add(discard(incoming, d.reason(), false, false));
                    acks.add(entryId);
                }
            } else if (verdict instanceof Verdict.NotDue) {
                notDue.add(RetryEnvelopes.fromRecord(record));
                acks.add(entryId);
            } else if (verdict instanceof Verdict.Poison) {
                toClaim.put(operationId, new Decided(incoming, record, true));
            } else {
                ToolGate.Closed closed = settings.gate().admit(record.tool(), now).orElse(null);
                if (closed == null) {
                    toClaim.put(operationId, new Decided(incoming, record, false));
                } else {
                    deferrals.add(new Deferral(operationId, record.attempt(),
                            closed.until().truncatedTo(ChronoUnit.MILLIS).plusMillis(1), closed.because()));
                    acks.add(entryId);
                }
            }
        }
        store.recordDiscards(discards, now);
        List<Deferral> deferred = store.defer(deferrals, now);
        for (Deferral deferral : deferred) {
            OperationRecord record = records.get(deferral.operationId());
            notDue.add(RetryEnvelopes.of(record, deferral.attempt(), deferral.until(), deferral.because(),
                    record.redriveCommandId(), now));
        }
        retryQueue.schedule(notDue);
        reannounce.forEach(deadLetterStream::publish);
        stream.ack(acks);
        claimAndRun(toClaim, now);
    }

    private void deadLetterInvalid(List<MessageDeadLetter> invalid, List<String> acks) {
        for (MessageDeadLetter letter : invalid) {
            LOG.warn("entry {} is not a valid dispatch: {}", letter.entryId(), letter.errorMessage());
            deadLetterStream.publish(deadLetters.enterForMessage(letter));
            acks.add(letter.entryId());
        }
    }

    private Map<String, OperationRecord> loadOrRecord(List<Incoming> valid) {
        Set<String> ids = new LinkedHashSet<>();
        valid.forEach(incoming -> ids.add(incoming.envelope().operationId().value()));
        Map<String, OperationRecord> records = new HashMap<>(store.load(ids));
        List<String> firstSight = new ArrayList<>();
        for (Incoming incoming : valid) {
            String id = incoming.envelope().operationId().value();
            if (!records.containsKey(id) && !firstSight.contains(id)) {
                registry.recordIfAbsent(incoming.envelope(), OperationStatus.PENDING);
                firstSight.add(id);
            }
        }
        records.putAll(store.load(firstSight));
        return records;
    }

    private void repair(Verdict.Repair repair, OperationRecord record, List<DispatchEnvelope> retries,
                        List<DeadLetterEvent> events) {
        switch (repair) {
            case REPUBLISH_RETRY -> retries.add(RetryEnvelopes.fromRecord(record));
            case REPUBLISH_DEAD_LETTER -> deadLetters.eventFor(
                    DeadLetterStore.operationDedupKey(record.operationId(), record.attempt())).ifPresent(events::add);
            case NONE -> {
            }
        }
    }

    /** Whether the facts still show the operation running under this worker's lease. */
    private boolean heldHere(OperationRecord record) {
        return record.status() == OperationStatus.RUNNING && settings.consumerName().equals(record.leaseOwner());
    }

    private void claimAndRun(Map<String, Decided> toClaim, Instant now) {
        if (toClaim.isEmpty()) {
            return;
        }
        List<ClaimRequest> requests = new ArrayList<>();
        for (Decided decided : toClaim.values()) {
            DispatchEnvelope envelope = decided.incoming().envelope();
            requests.add(new ClaimRequest(envelope.operationId().value(), envelope.attempt(),
                    decided.incoming().delivery().entryId(),
                    envelope.redriveCommandId() == null ? null : UUID.fromString(envelope.redriveCommandId()),
                    decided.record().status() == OperationStatus.RUNNING));
        }
        List<Lease> leases = store.claim(requests, settings.consumerName(), now, settings.leaseDuration());
        if (leases.size() < requests.size()) {
            LOG.debug("{} of {} claims lost a race; those entries stay pending", requests.size() - leases.size(),
                    requests.size());
        }
        for (Lease lease : leases) {
            Decided decided = toClaim.get(lease.operationId());
            Delivery delivery = decided.incoming().delivery();
            Job job = new Job(delivery, decided.incoming().envelope(), decided.record(), lease,
                    settings.tools().get(decided.incoming().envelope().tool()));
            if (!inFlight.tryAdd(delivery.entryId(), lease)) {
                store.release(lease, now);
                continue;
            }
            if (decided.poison()) {
                committer.submit(new AttemptEnd.Finished(job,
                        runner.poison(job, history.read(delivery.entryId()), settings.deliveryLimit())));
            } else {
                tools.execute(() -> committer.submit(runSafely(job)));
            }
        }
    }

    private AttemptEnd runSafely(Job job) {
        if (!inFlight.holdsLiveLease(job.operationId(), job.delivery().entryId(), settings.clock().instant())) {
            return new AttemptEnd.NotStarted(job);
        }
        try {
            return runner.run(job);
        } catch (RuntimeException e) {
            return new AttemptEnd.Crashed(job, e, false);
        }
    }

    private Discard discard(Incoming incoming, String reason, boolean cancelOperation, boolean failCommand) {
        Delivery delivery = incoming.delivery();
        DispatchEnvelope envelope = incoming.envelope();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("entry_id", delivery.entryId());
        details.put("delivery_count", delivery.deliveryCount());
        details.put("consumer", delivery.consumer());
        details.put("attempt", envelope.attempt());
        UUID command = envelope.redriveCommandId() == null ? null : UUID.fromString(envelope.redriveCommandId());
        LOG.debug("discarding entry {} of {}: {}", delivery.entryId(), envelope.operationId(), reason);
        return new Discard(envelope.operationId().value(), command, reason, details, cancelOperation, failCommand);
    }

    private Instant now() {
        return settings.clock().instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
