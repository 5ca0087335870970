package dev.redrive.worker.protocol;

import dev.redrive.broker.DeadLetterStream;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.model.OperationStatus;
import dev.redrive.secret.SecretScanner;
import dev.redrive.store.Jdbc;
import dev.redrive.store.deadletter.DeadLetterEvent;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.store.deadletter.MessageDeadLetter;
import dev.redrive.store.operation.Deferral;
import dev.redrive.store.operation.DiscardedDispatch;
import dev.redrive.store.operation.Lease;
import dev.redrive.store.operation.OperationFacts;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.worker.retry.RetryQueue;
import dev.redrive.worker.retry.ToolGate;
import dev.redrive.worker.stream.Delivery;
import dev.redrive.worker.stream.DispatchStream;
import dev.redrive.worker.telemetry.WorkerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;

/**
 * The per-message protocol, applied to a batch of deliveries at once, in five phases with one place for each kind of
 * failure: <b>decode</b> (see {@link DispatchIntake}: what is not a valid dispatch is dead-lettered as itself), <b>claim</b> (claim what the facts
 * allow and read the facts, fault-isolated per operation: see {@link BatchClaim}), <b>judge</b> (the eligibility rules
 * on the facts as they were before the claim), <b>settle</b> (write the dead letters, discards and deferrals, put
 * retries back, then ack) and <b>execute</b> (hand each claimed attempt to the tool pool; its end goes to the
 * committer).
 * <p>
 * A failure on one message stays with that message: whatever decoding or judging one delivery throws, foreseen or not
 * (a rule of the wire contract, a number no parser reads, a stack overflow, a bug), is that message's own unless it
 * says the servers are away (see {@link MessageFault}), and dead-letters it alone while the rest of its batch goes on.
 * A message the store fails on, alone, is delivered again until the delivery limit, then dead-lettered alike.
 */
final class DispatchProcessor {
    private static final Logger LOG = LoggerFactory.getLogger(DispatchProcessor.class);

    private final WorkerSettings settings;
    private final DispatchIntake intake;
    private final OperationStore store;
    private final DeadLetterStore deadLetters;
    private final DeadLetterStream deadLetterStream;
    private final RetryQueue retryQueue;
    private final DispatchStream stream;
    private final InFlight inFlight;
    private final AttemptRunner runner;
    private final Committer committer;
    private final DeliveryHistory history;
    private final ExecutorService tools;
    private final BatchClaim batchClaim;

    DispatchProcessor(WorkerSettings settings, Jdbc jdbc, DeadLetterStream deadLetterStream, RetryQueue retryQueue,
                      DispatchStream stream, InFlight inFlight, AttemptRunner runner, Committer committer,
                      DeliveryHistory history, ExecutorService tools, ToolServers toolServers) {
        this.settings = settings;
        this.store = new OperationStore(jdbc);
        this.intake = new DispatchIntake(settings, store, toolServers);
        this.deadLetters = new DeadLetterStore(jdbc);
        this.deadLetterStream = deadLetterStream;
        this.retryQueue = retryQueue;
        this.stream = stream;
        this.inFlight = inFlight;
        this.runner = runner;
        this.committer = committer;
        this.history = history;
        this.tools = tools;
        this.batchClaim = new BatchClaim(store, new OperationRegistry(jdbc), settings.consumerName(),
                settings.leaseDuration());
    }

    /**
     * A delivery whose claim won, with the facts as they were before it; {@code refusal}, when judging it failed, is
     * why its operation is dead-lettered instead of run.
     */
    private record Claimed(Incoming incoming, OperationFacts record, Lease lease, boolean poison, Refusal refusal) {
    }

    private record Refusal(String code, String message) {
    }

    /**
     * Of each operation that no attempt here is handling, the delivery with the newest attempt, when its tool's gate
     * admits a call; the operations a local attempt is handling; and the deliveries the gate kept back.
     */
    private record Plan(Map<String, Incoming> candidates, Map<String, String> handledHere,
                        Map<Incoming, ToolGate.Closed> gated) {
    }

    void process(List<Delivery> deliveries) {
        if (deliveries.isEmpty()) {
            return;
        }
        Instant now = now();
        BatchOutcome outcome = new BatchOutcome(now);
        List<Incoming> valid = intake.decode(deliveries, outcome, now);
        Plan plan = plan(valid, now);
        long claimStarted = System.nanoTime();
        BatchClaim.Result facts = batchClaim.claim(valid, plan.candidates().values(), outcome, now);
        settings.metrics().batch(deliveries.size(), Duration.ofNanos(System.nanoTime() - claimStarted));
        facts.failed().forEach((operationId, failure) -> valid.stream()
                .filter(incoming -> incoming.operationId().equals(operationId))
                .forEach(incoming -> failedInStore(incoming, failure, outcome, now)));
        List<Claimed> claimed = judge(valid, plan, facts, outcome, now);
        settle(outcome, facts.records(), now);
        execute(claimed, now);
    }

    /**
     * A delivery whose operation the store failed on, alone in its batch, with a failure that need not come back (a
     * serialization failure, a timeout, a failure nobody foresaw): it stays pending and is delivered again, until as
     * many of its deliveries failed as the delivery limit allows; then it is dead-lettered as itself.
     */
    private void failedInStore(Incoming incoming, Throwable failure, BatchOutcome outcome, Instant now) {
        int failed = history.recordIntakeFailure(incoming.delivery(), failure, now);
        String why = MessageFault.describe(failure, "recording or claiming its operation");
        if (failed >= settings.deliveryLimit()) {
            outcome.deadLetter(incoming.delivery(), DeadLetterCodes.DELIVERY_LIMIT, "failed " + failed
                    + " deliveries (limit " + settings.deliveryLimit() + ") before its operation could be recorded or "
                    + "claimed; the last: " + why);
        } else {
            LOG.warn("entry {} of {}: {}; it stays pending ({} of {} deliveries failed)", incoming.entryId(),
                    incoming.operationId(), why, failed, settings.deliveryLimit(), failure);
        }
    }

    // ---- plan --------------------------------------------------------------------------------------------------

    private Plan plan(List<Incoming> valid, Instant now) {
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
        return new Plan(candidates, handledHere, gated);
    }

    // ---- judge -------------------------------------------------------------------------------------------------

    /**
     * Judges every delivery on the facts as they were before the claim: the won claims go on to execute, the rest are
     * acked with what they leave behind, or stay pending.
     */
    private List<Claimed> judge(List<Incoming> valid, Plan plan, BatchClaim.Result facts, BatchOutcome outcome,
                                Instant now) {
        List<Claimed> claimed = new ArrayList<>();
        for (Incoming incoming : valid) {
            int before = claimed.size();
            Throwable failure = MessageFault.alone(() -> judge(incoming, plan, facts, outcome, now, claimed));
            if (failure != null) {
                refuse(incoming, failure, plan, facts, outcome, claimed.size() > before, claimed);
            }
        }
        return claimed;
    }

    private void judge(Incoming incoming, Plan plan, BatchClaim.Result facts, BatchOutcome outcome, Instant now,
                       List<Claimed> claimed) {
        String operationId = incoming.operationId();
        Incoming candidate = plan.candidates().get(operationId);
        if (facts.refused().contains(operationId)) {
            if (candidate == incoming) {
                settings.gate().giveBack(incoming.envelope().tool());
            }
            return;
        }
        OperationFacts record = facts.records().get(operationId);
        String entryId = incoming.entryId();
        Lease lease = facts.leases().get(operationId);
        String conflict = candidate == incoming && lease != null ? null : Eligibility.conflict(incoming.envelope(), record);
        if (conflict != null) {
            if (candidate == incoming) {
                settings.gate().giveBack(incoming.envelope().tool());
            }
            outcome.deadLetter(incoming.delivery(), DeadLetterCodes.IDEMPOTENCY_CONFLICT, conflict);
            return;
        }
        if (candidate == incoming) {
            if (lease != null) {
                claimed(incoming, record, lease, now).ifPresent(claimed::add);
                return;
            }
            // The claim did not happen, so neither will the call the gate admitted.
            settings.gate().giveBack(incoming.envelope().tool());
        }
        String localEntry = plan.handledHere().get(operationId);
        if (entryId.equals(localEntry) || candidate != null && candidate != incoming
                && candidate.entryId().equals(entryId)) {
            return;
        }
        if (localEntry != null && !heldHere(record)) {
            // The attempt in flight here has been settled meanwhile (a commit, or another worker that took the
            // lease over): this delivery may be the retry that settlement scheduled. It is neither a duplicate to
            // discard nor claimable while the old attempt holds the slot, so it stays pending for a re-claim.
            return;
        }
        if (localEntry != null || lease != null) {
            settings.metrics().deliverySkipped("duplicate");
            outcome.discards.add(discard(incoming, "another delivery of this operation is being handled by "
                    + settings.consumerName(), false, false));
            outcome.ack(entryId);
            return;
        }
        judgeUnclaimed(incoming, record, plan.gated().get(incoming), outcome, now);
    }

    /**
     * Judging a delivery failed, and would fail again on every delivery of it. When its claim won, the operation is
     * dead-lettered with the lease (a message dead-lettered alone would leave its operation waiting, and the sweep would
     * publish it again and again); otherwise the delivery is dead-lettered as itself.
     */
    private void refuse(Incoming incoming, Throwable failure, Plan plan, BatchClaim.Result facts, BatchOutcome outcome,
                        boolean alreadyClaimed, List<Claimed> claimed) {
        Lease lease = facts.leases().get(incoming.operationId());
        OperationFacts record = facts.records().get(incoming.operationId());
        if (alreadyClaimed || plan.candidates().get(incoming.operationId()) != incoming || lease == null
                || record == null) {
            outcome.deadLetterAlone(incoming.delivery(), failure, "judging it");
            return;
        }
        LOG.warn("entry {} of {} failed while judging it; dead-lettering its operation", incoming.entryId(),
                incoming.operationId(), failure);
        settings.gate().giveBack(incoming.envelope().tool());
        claimed.add(new Claimed(incoming, record, lease, false,
                new Refusal(MessageFault.code(failure), MessageFault.describe(failure, "judging it"))));
    }

    private void judgeUnclaimed(Incoming incoming, OperationFacts record, ToolGate.Closed gated, BatchOutcome outcome,
                                Instant now) {
        String entryId = incoming.entryId();
        Verdict verdict = Eligibility.decide(incoming.envelope(), record, incoming.delivery(), now,
                settings.deliveryLimit());
        if (verdict instanceof Verdict.AlreadySucceeded) {
            settings.metrics().deliverySkipped("done");
            outcome.ack(entryId);
        } else if (verdict instanceof Verdict.Discard d) {
            settings.metrics().deliverySkipped("discarded");
            outcome.discards.add(discard(incoming, d.reason(), d.cancelOperation(), d.failCommand()));
            repair(d.repair(), record, outcome);
            outcome.ack(entryId);
        } else if (verdict instanceof Verdict.Duplicate d) {
            if (d.ack()) {
                settings.metrics().deliverySkipped("duplicate");
                outcome.discards.add(discard(incoming, d.reason(), false, false));
                outcome.ack(entryId);
            }
        } else if (verdict instanceof Verdict.NotDue) {
            settings.metrics().deliverySkipped("not_due");
            outcome.retries.add(RetryEnvelopes.fromRecord(record));
            outcome.ack(entryId);
        } else if (gated != null) {
            settings.metrics().deliverySkipped("paused");
            outcome.deferrals.add(new Deferral(incoming.operationId(), record.attempt(),
                    gated.until().truncatedTo(ChronoUnit.MILLIS).plusMillis(1), gated.because()));
            outcome.ack(entryId);
        } else {
            // Claimable by the facts read, but the claim lost a race with another worker's: the entry stays
            // pending, and a re-claim finds that worker's lease or its result.
            LOG.debug("claim of {} for entry {} lost a race; the entry stays pending", incoming.operationId(), entryId);
        }
    }

    /**
     * A won claim goes on when the eligibility rules agree (the statement claims only what they allow: this is a
     * guard against the two drifting apart); otherwise the lease is given back and the entry stays pending.
     */
    private Optional<Claimed> claimed(Incoming incoming, OperationFacts record, Lease lease, Instant now) {
        Verdict verdict = Eligibility.decide(incoming.envelope(), record, incoming.delivery(), now,
                settings.deliveryLimit());
        if (verdict instanceof Verdict.Claim || verdict instanceof Verdict.Poison) {
            return Optional.of(new Claimed(incoming, record, lease, verdict instanceof Verdict.Poison, null));
        }
        LOG.error("claimed {} for entry {} although the eligibility rules say {}; giving the lease back",
                incoming.operationId(), incoming.entryId(), verdict);
        store.giveBackUnstarted(lease, now);
        return Optional.empty();
    }

    private void repair(Verdict.Repair repair, OperationFacts record, BatchOutcome outcome) {
        switch (repair) {
            case REPUBLISH_RETRY -> outcome.retries.add(RetryEnvelopes.fromRecord(record));
            case REPUBLISH_DEAD_LETTER -> deadLetters.eventFor(
                    DeadLetterStore.operationDedupKey(record.operationId(), record.attempt()))
                    .ifPresent(outcome.reannounce::add);
            case NONE -> {
            }
        }
    }

    /** Whether the facts still show the operation running under this worker's lease. */
    private boolean heldHere(OperationFacts record) {
        return record.status() == OperationStatus.RUNNING && settings.consumerName().equals(record.leaseOwner());
    }

    private DiscardedDispatch discard(Incoming incoming, String reason, boolean cancelOperation, boolean failCommand) {
        Delivery delivery = incoming.delivery();
        DispatchEnvelope envelope = incoming.envelope();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("entry_id", delivery.entryId());
        details.put("delivery_count", delivery.deliveryCount());
        details.put("consumer", delivery.consumer());
        details.put("attempt", envelope.attempt());
        UUID command = envelope.redriveCommandId() == null ? null : UUID.fromString(envelope.redriveCommandId());
        LOG.debug("discarding entry {} of {}: {}", delivery.entryId(), envelope.operationId(), reason);
        return new DiscardedDispatch(envelope.operationId().value(), command, reason, details, cancelOperation, failCommand);
    }

    // ---- settle ------------------------------------------------------------------------------------------------

    /** Writes what the batch leaves behind, then acks: an entry is acked only once what it asked for is durable. */
    private void settle(BatchOutcome outcome, Map<String, OperationFacts> records, Instant now) {
        List<String> deadLettered = new ArrayList<>();
        for (MessageDeadLetter letter : outcome.deadLetters) {
            LOG.warn("entry {} dead-lettered as {}: {}", letter.entryId(), letter.errorCode(),
                    SecretScanner.defaults().mask(letter.errorMessage()));
            settings.metrics().deadLettered(WorkerMetrics.NONE, letter.errorClass().name());
            deadLetterStream.publish(enter(letter));
            outcome.ack(letter.entryId());
            deadLettered.add(letter.entryId());
        }
        history.forget(deadLettered);
        store.recordDiscards(outcome.discards, now);
        for (Deferral deferral : store.defer(outcome.deferrals, now)) {
            OperationFacts record = records.get(deferral.operationId());
            outcome.retries.add(RetryEnvelopes.of(record, deferral.attempt(), deferral.until(), deferral.because(),
                    record.redriveCommandId(), now));
        }
        retryQueue.schedule(outcome.retries);
        outcome.reannounce.forEach(deadLetterStream::publish);
        stream.ack(outcome.acks);
    }

    /**
     * Enters a message's dead letter. Should the store fail on its evidence, which is built never to happen, the entry is
     * written with why in place of the raw fields, rather than fail the batch on every delivery.
     */
    private DeadLetterEvent enter(MessageDeadLetter letter) {
        try {
            return deadLetters.enterForMessage(letter);
        } catch (RuntimeException | Error e) {
            MessageFault.rethrowUnlessOwn(e);
            LOG.error("the DLQ entry of entry {} could not be written with its raw fields; writing it without them",
                    letter.entryId(), e);
            return deadLetters.enterForMessage(letter.withoutRawMessage(MessageFault.describe(e, "storing them")));
        }
    }

    // ---- execute -----------------------------------------------------------------------------------------------

    /** Hands each claimed attempt to the tool pool, or a poison message straight to the committer. */
    private void execute(List<Claimed> claimed, Instant now) {
        for (Claimed claim : claimed) {
            Delivery delivery = claim.incoming().delivery();
            DispatchEnvelope envelope = claim.incoming().envelope();
            Job job = new Job(delivery, envelope, claim.record(), claim.lease(), settings.tools().get(envelope.tool()));
            if (!inFlight.tryAdd(delivery.entryId(), claim.lease())) {
                store.giveBackUnstarted(claim.lease(), now);
                continue;
            }
            if (claim.poison() || claim.refusal() != null) {
                AttemptEnd end = new AttemptEnd.Finished(job, claim.refusal() != null
                        ? runner.refuse(job, claim.refusal().code(), claim.refusal().message())
                        : runner.poison(job, history.read(delivery.entryId()), claim.record().processingDeliveries(),
                        settings.deliveryLimit()));
                inFlight.ended(delivery.entryId());
                committer.submit(end);
            } else {
                tools.execute(() -> {
                    long started = System.nanoTime();
                    AttemptEnd end = runSafely(job);
                    inFlight.ended(delivery.entryId(), System.nanoTime() - started);
                    committer.submit(end);
                });
            }
        }
    }

    private AttemptEnd runSafely(Job job) {
        Instant leaseEnd = inFlight.liveLeaseEnd(job.operationId(), job.delivery().entryId(), settings.clock().instant())
                .orElse(null);
        if (leaseEnd == null) {
            return new AttemptEnd.NotStarted(job);
        }
        try {
            return runner.run(job, leaseEnd);
        } catch (RuntimeException | Error e) {
            if (MessageFault.isFatal(e)) {
                throw e;
            }
            return AttemptEnd.Crashed.beforeTheCall(job, e);
        }
    }

    private Instant now() {
        return settings.clock().instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
