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
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;

/**
 * The per-message protocol, applied to a batch of deliveries at once: validate, claim what the facts allow and read
 * the facts (one statement; operations seen for the first time are recorded and go through a second), decide, write
 * the discards / deferrals (one transaction each), ack what needs no tool call, and hand each claimed attempt to the
 * tool pool.
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
        String operationId() {
            return envelope.operationId().value();
        }

        String entryId() {
            return delivery.entryId();
        }
    }

    /** A delivery whose claim won, with the facts as they were before it. */
    private record Claimed(Incoming incoming, OperationRecord record, Lease lease, boolean poison) {
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

        // The claim goes with the read of the facts, in one statement. Asked for: of each operation that no attempt
        // here is handling, the delivery with the newest attempt, when its tool's gate admits a call. The statement
        // claims only what the facts allow; the eligibility rules then judge every delivery on the facts as they were
        // before the claim.
        Map<String, String> handledHere = new HashMap<>();
        Map<String, Incoming> candidates = new LinkedHashMap<>();
        Map<Incoming, ToolGate.Closed> gated = new HashMap<>();
        for (Incoming incoming : valid) {
            String operationId = incoming.operationId();
            Incoming candidate = candidates.get(operationId);
            if (candidate != null && incoming.envelope().attempt() > candidate.envelope().attempt()) {
                candidates.put(operationId, incoming);
            }
            if (handledHere.containsKey(operationId) || candidate != null) {
                continue;
            }
            String localEntry = inFlight.entryOf(operationId);
            if (localEntry != null) {
                handledHere.put(operationId, localEntry);
                continue;
            }
            ToolGate.Closed closed = settings.gate().admit(incoming.envelope().tool(), now).orElse(null);
            if (closed == null) {
                candidates.put(operationId, incoming);
            } else {
                gated.put(incoming, closed);
            }
        }
        OperationStore.Sighting sighting = claimAndLoad(valid, candidates.values(), now);

        List<Discard> discards = new ArrayList<>();
        List<Deferral> deferrals = new ArrayList<>();
        List<DispatchEnvelope> notDue = new ArrayList<>();
        List<DeadLetterEvent> reannounce = new ArrayList<>();
        List<Claimed> claimed = new ArrayList<>();
        for (Incoming incoming : valid) {
            String operationId = incoming.operationId();
            OperationRecord record = sighting.records().get(operationId);
            String entryId = incoming.entryId();
            Incoming candidate = candidates.get(operationId);
            Lease lease = sighting.leases().get(operationId);
            if (candidate == incoming) {
                if (lease != null) {
                    claimed(incoming, record, lease, now).ifPresent(claimed::add);
                    continue;
                }
                // The claim did not happen, so neither will the call the gate admitted.
                settings.gate().giveBack(incoming.envelope().tool());
            }
            String localEntry = handledHere.get(operationId);
            if (entryId.equals(localEntry) || candidate != null && candidate != incoming
                    && candidate.entryId().equals(entryId)) {
                continue;
            }
            if (localEntry != null && !heldHere(record)) {
                // The attempt in flight here has been settled meanwhile (a commit, or another worker that took the
                // lease over): this delivery may be the retry that settlement scheduled. It is neither a duplicate to
                // discard nor claimable while the old attempt holds the slot, so it stays pending for a re-claim.
                continue;
            }
            if (localEntry != null || lease != null) {
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
            } else if (gated.containsKey(incoming)) {
                ToolGate.Closed closed = gated.get(incoming);
                deferrals.add(new Deferral(operationId, record.attempt(),
                        closed.until().truncatedTo(ChronoUnit.MILLIS).plusMillis(1), closed.because()));
                acks.add(entryId);
            } else {
                // Claimable by the facts read, but the claim lost a race with another worker's: the entry stays
                // pending, and a re-claim finds that worker's lease or its result.
                LOG.debug("claim of {} for entry {} lost a race; the entry stays pending", operationId, entryId);
            }
        }
        store.recordDiscards(discards, now);
        List<Deferral> deferred = store.defer(deferrals, now);
        for (Deferral deferral : deferred) {
            OperationRecord record = sighting.records().get(deferral.operationId());
            notDue.add(RetryEnvelopes.of(record, deferral.attempt(), deferral.until(), deferral.because(),
                    record.redriveCommandId(), now));
        }
        retryQueue.schedule(notDue);
        reannounce.forEach(deadLetterStream::publish);
        stream.ack(acks);
        run(claimed, now);
    }

    /**
     * A won claim goes on when the eligibility rules agree (the statement claims only what they allow: this is a
     * guard against the two drifting apart); otherwise the lease is given back and the entry stays pending.
     */
    private Optional<Claimed> claimed(Incoming incoming, OperationRecord record, Lease lease, Instant now) {
        Verdict verdict = Eligibility.decide(incoming.envelope(), record, incoming.delivery(), now,
                settings.deliveryLimit());
        if (verdict instanceof Verdict.Claim || verdict instanceof Verdict.Poison) {
            return Optional.of(new Claimed(incoming, record, lease, verdict instanceof Verdict.Poison));
        }
        LOG.error("claimed {} for entry {} although the eligibility rules say {}; giving the lease back",
                incoming.operationId(), incoming.entryId(), verdict);
        store.release(lease, now);
        return Optional.empty();
    }

    private void deadLetterInvalid(List<MessageDeadLetter> invalid, List<String> acks) {
        for (MessageDeadLetter letter : invalid) {
            LOG.warn("entry {} is not a valid dispatch: {}", letter.entryId(), letter.errorMessage());
            deadLetterStream.publish(deadLetters.enterForMessage(letter));
            acks.add(letter.entryId());
        }
    }

    /**
     * Claims the candidates and loads the facts of every valid delivery's operation; operations seen for the first time
     * (published straight to Redis by another runtime) are recorded, then claimed and loaded in a second statement.
     */
    private OperationStore.Sighting claimAndLoad(List<Incoming> valid, Collection<Incoming> candidates, Instant now) {
        Set<String> ids = new LinkedHashSet<>();
        valid.forEach(incoming -> ids.add(incoming.operationId()));
        OperationStore.Sighting known = store.claimAndLoad(ids, claims(candidates), settings.consumerName(), now,
                settings.leaseDuration());
        Map<String, Incoming> firstSight = new LinkedHashMap<>();
        for (Incoming incoming : valid) {
            if (!known.records().containsKey(incoming.operationId())) {
                firstSight.putIfAbsent(incoming.operationId(), incoming);
            }
        }
        if (firstSight.isEmpty()) {
            return known;
        }
        firstSight.values().forEach(incoming -> registry.recordIfAbsent(incoming.envelope(), OperationStatus.PENDING));
        OperationStore.Sighting recorded = store.claimAndLoad(firstSight.keySet(), claims(candidates.stream()
                        .filter(candidate -> firstSight.containsKey(candidate.operationId())).toList()),
                settings.consumerName(), now, settings.leaseDuration());
        Map<String, OperationRecord> records = new HashMap<>(known.records());
        records.putAll(recorded.records());
        Map<String, Lease> leases = new HashMap<>(known.leases());
        leases.putAll(recorded.leases());
        return new OperationStore.Sighting(records, leases);
    }

    private static List<ClaimRequest> claims(Collection<Incoming> candidates) {
        List<ClaimRequest> claims = new ArrayList<>(candidates.size());
        for (Incoming candidate : candidates) {
            DispatchEnvelope envelope = candidate.envelope();
            claims.add(new ClaimRequest(candidate.operationId(), envelope.attempt(), candidate.entryId(),
                    envelope.redriveCommandId() == null ? null : UUID.fromString(envelope.redriveCommandId())));
        }
        return claims;
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

    /** Hands each claimed attempt to the tool pool, or a poison message straight to the committer. */
    private void run(List<Claimed> claimed, Instant now) {
        for (Claimed claim : claimed) {
            Delivery delivery = claim.incoming().delivery();
            DispatchEnvelope envelope = claim.incoming().envelope();
            Job job = new Job(delivery, envelope, claim.record(), claim.lease(), settings.tools().get(envelope.tool()));
            if (!inFlight.tryAdd(delivery.entryId(), claim.lease())) {
                store.release(claim.lease(), now);
                continue;
            }
            if (claim.poison()) {
                AttemptEnd end = new AttemptEnd.Finished(job, runner.poison(job, history.read(delivery.entryId()),
                        claim.record().processingDeliveries(), settings.deliveryLimit()));
                inFlight.ended(delivery.entryId());
                committer.submit(end);
            } else {
                tools.execute(() -> {
                    AttemptEnd end = runSafely(job);
                    inFlight.ended(delivery.entryId());
                    committer.submit(end);
                });
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
