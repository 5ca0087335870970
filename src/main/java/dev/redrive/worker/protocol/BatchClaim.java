package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.model.OperationStatus;
import dev.redrive.secret.SecretScanner;
import dev.redrive.store.StoreException;
import dev.redrive.store.operation.ClaimRequest;
import dev.redrive.store.operation.Lease;
import dev.redrive.store.operation.OperationFacts;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.store.operation.Recorded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The claim phase of a batch: claims the candidates and reads the facts of every operation the batch names, in one
 * statement; operations seen for the first time (published straight to Redis by another runtime) are recorded, then
 * claimed and read in a second one. Fault-isolated per operation: when a statement fails with anything but a failure
 * of the servers (see {@link MessageFault}), it is retried operation by operation. The deliveries of an operation
 * whose values the database refuses (a data exception) are dead-lettered alone at once; an operation that fails alone
 * in another way is reported {@link Result#failed() failed}, and its deliveries wait for another delivery (see the
 * delivery limit) instead of failing the batch over and over. A failure of the servers (the database is away) fails
 * the batch after giving back the leases it won, so its entries are re-claimed at once.
 */
final class BatchClaim {
    private static final Logger LOG = LoggerFactory.getLogger(BatchClaim.class);

    private final OperationStore store;
    private final OperationRegistry registry;
    private final String owner;
    private final Duration leaseDuration;

    BatchClaim(OperationStore store, OperationRegistry registry, String owner, Duration leaseDuration) {
        this.store = store;
        this.registry = registry;
        this.owner = owner;
        this.leaseDuration = leaseDuration;
    }

    /**
     * What the claim phase learnt: the facts and won leases by operation id; the operations whose deliveries were
     * dead-lettered here (unstorable, or in conflict with what is recorded) or failed, which must not be judged; and
     * of the failed ones, the failure the store met when it handled each alone.
     */
    record Result(Map<String, OperationFacts> records, Map<String, Lease> leases, Set<String> refused,
                  Map<String, Throwable> failed) {
    }

    Result claim(List<Incoming> valid, Collection<Incoming> candidates, BatchOutcome outcome, Instant now) {
        Map<String, List<Incoming>> byOperation = new LinkedHashMap<>();
        valid.forEach(incoming -> byOperation.computeIfAbsent(incoming.operationId(), id -> new ArrayList<>()).add(incoming));
        Map<String, ClaimRequest> claims = new LinkedHashMap<>();
        candidates.forEach(candidate -> claims.put(candidate.operationId(), candidate.claim()));

        Result result = new Result(new HashMap<>(), new HashMap<>(), new HashSet<>(), new LinkedHashMap<>());
        try {
            isolated(byOperation.keySet(), claims, byOperation, outcome, now, result);
            Map<String, List<Incoming>> unseen = new LinkedHashMap<>();
            byOperation.forEach((id, deliveries) -> {
                if (!result.records().containsKey(id) && !result.refused().contains(id)) {
                    unseen.put(id, deliveries);
                }
            });
            List<String> firstSight = new ArrayList<>();
            recordFirstSightings(unseen, outcome, now, result).forEach((id, stored) -> {
                if (stored) {
                    firstSight.add(id);
                } else {
                    result.refused().add(id);
                }
            });
            isolated(firstSight, claims, byOperation, outcome, now, result);
            return result;
        } catch (RuntimeException | Error e) {
            result.leases().values().forEach(lease -> giveBack(lease, now));
            throw e;
        }
    }

    /**
     * Claims and loads, first all at once, then, if that failed on something but the servers, operation by operation.
     */
    private void isolated(Collection<String> ids, Map<String, ClaimRequest> claims, Map<String, List<Incoming>> byOperation,
                          BatchOutcome outcome, Instant now, Result result) {
        if (ids.isEmpty()) {
            return;
        }
        try {
            load(ids, claims, now, result);
        } catch (RuntimeException | Error e) {
            MessageFault.rethrowUnlessOwn(e);
            if (ids.size() == 1) {
                blame(ids.iterator().next(), e, byOperation, outcome, result);
                return;
            }
            LOG.warn("claiming this batch failed ({}); claiming operation by operation", e.toString());
            for (String id : ids) {
                try {
                    load(List.of(id), claims, now, result);
                } catch (RuntimeException | Error single) {
                    MessageFault.rethrowUnlessOwn(single);
                    blame(id, single, byOperation, outcome, result);
                }
            }
        }
    }

    private void load(Collection<String> ids, Map<String, ClaimRequest> claims, Instant now, Result result) {
        List<ClaimRequest> requests = ids.stream().map(claims::get).filter(Objects::nonNull).toList();
        OperationStore.Sighting sighting = store.claimAndLoad(ids, requests, owner, now, leaseDuration);
        result.records().putAll(sighting.records());
        result.leases().putAll(sighting.leases());
    }

    /**
     * An operation the store failed on alone: dead-lettered at once when the database refuses one of its values (it
     * would refuse it on every delivery), else failed, to be delivered again.
     */
    private static void blame(String id, Throwable failure, Map<String, List<Incoming>> byOperation, BatchOutcome outcome,
                              Result result) {
        if (failure instanceof StoreException e && e.isBadValue()) {
            unstorable(byOperation.get(id), e, outcome);
        } else {
            result.failed().put(id, failure);
        }
        result.refused().add(id);
    }

    /**
     * Records the operations seen for the first time, from each one's first delivery in the batch, in one transaction;
     * if that fails on something but the servers, one by one. A dispatch due later ({@code next_eligible_at} in the
     * future) is recorded as a scheduled retry, so that it waits for its time. False for an operation that is not
     * recorded: its deliveries are dead-lettered (the database refuses a value, or the operation id or idempotency key
     * is already bound to other parameters), or it failed alone (see {@link Result#failed()}).
     */
    private Map<String, Boolean> recordFirstSightings(Map<String, List<Incoming>> unseen, BatchOutcome outcome,
                                                      Instant now, Result result) {
        Map<String, Boolean> stored = new LinkedHashMap<>();
        if (unseen.isEmpty()) {
            return stored;
        }
        Function<DispatchEnvelope, OperationStatus> status = envelope -> envelope.nextEligibleAt() != null
                && envelope.nextEligibleAt().isAfter(now) ? OperationStatus.RETRY_SCHEDULED : OperationStatus.PENDING;
        Map<String, Recorded> recorded;
        try {
            List<String> ids = List.copyOf(unseen.keySet());
            List<Recorded> outcomes = registry.recordAll(ids.stream().map(id -> unseen.get(id).get(0).envelope()).toList(),
                    status);
            recorded = new LinkedHashMap<>();
            for (int i = 0; i < ids.size(); i++) {
                recorded.put(ids.get(i), outcomes.get(i));
            }
        } catch (RuntimeException | Error e) {
            MessageFault.rethrowUnlessOwn(e);
            LOG.warn("recording the operations this batch sees first failed ({}); recording them one by one",
                    e.toString());
            recorded = new LinkedHashMap<>();
            for (Map.Entry<String, List<Incoming>> operation : unseen.entrySet()) {
                DispatchEnvelope envelope = operation.getValue().get(0).envelope();
                try {
                    recorded.put(operation.getKey(), registry.record(envelope, status.apply(envelope)));
                } catch (RuntimeException | Error single) {
                    MessageFault.rethrowUnlessOwn(single);
                    blame(operation.getKey(), single, unseen, outcome, result);
                    stored.put(operation.getKey(), false);
                }
            }
        }
        recorded.forEach((id, outcomeOfRecord) -> {
            if (outcomeOfRecord.outcome() == Recorded.Outcome.CONFLICT) {
                unseen.get(id).forEach(incoming -> outcome.deadLetter(incoming.delivery(),
                        DeadLetterCodes.IDEMPOTENCY_CONFLICT, outcomeOfRecord.conflict()));
                stored.put(id, false);
            } else {
                stored.put(id, true);
            }
        });
        return stored;
    }

    private static void unstorable(List<Incoming> deliveries, StoreException e, BatchOutcome outcome) {
        // the database's words may quote the value it refused
        String reason = "the operation store cannot hold this dispatch: "
                + SecretScanner.defaults().mask(e.getMessage().lines().findFirst().orElse(""))
                + " (SQLSTATE " + e.sqlState() + ")";
        for (Incoming incoming : deliveries) {
            LOG.warn("entry {} of {}: {}", incoming.entryId(), incoming.operationId(), reason);
            outcome.deadLetter(incoming.delivery(), DeadLetterCodes.UNSTORABLE_PAYLOAD, reason);
        }
    }

    private void giveBack(Lease lease, Instant now) {
        try {
            store.giveBackUnstarted(lease, now);
        } catch (RuntimeException e) {
            LOG.debug("could not give back the lease on {}; it expires on its own", lease.operationId(), e);
        }
    }
}
