package dev.redrive.worker.protocol;

import dev.redrive.model.OperationStatus;
import dev.redrive.store.StoreException;
import dev.redrive.store.operation.ClaimRequest;
import dev.redrive.store.operation.Lease;
import dev.redrive.store.operation.OperationRecord;
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

/**
 * The claim phase of a batch: claims the candidates and reads the facts of every operation the batch names, in one
 * statement; operations seen for the first time (published straight to Redis by another runtime) are recorded, then
 * claimed and read in a second one. Fault-isolated per operation: when the database refuses a value (a statement
 * fails with a data exception), the statement is retried operation by operation, and the deliveries of the operation
 * it cannot store are dead-lettered alone instead of failing the batch over and over. A failure that may pass (the
 * database is away) fails the batch after giving back the leases it won, so its entries are re-claimed at once.
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
     * What the claim phase learnt: the facts and won leases by operation id, and the operations whose deliveries were
     * dead-lettered here (unstorable, or in conflict with what is recorded) and must not be judged.
     */
    record Result(Map<String, OperationRecord> records, Map<String, Lease> leases, Set<String> refused) {
    }

    Result claim(List<Incoming> valid, Collection<Incoming> candidates, BatchOutcome outcome, Instant now) {
        Map<String, List<Incoming>> byOperation = new LinkedHashMap<>();
        valid.forEach(incoming -> byOperation.computeIfAbsent(incoming.operationId(), id -> new ArrayList<>()).add(incoming));
        Map<String, ClaimRequest> claims = new LinkedHashMap<>();
        candidates.forEach(candidate -> claims.put(candidate.operationId(), candidate.claim()));

        Result result = new Result(new HashMap<>(), new HashMap<>(), new HashSet<>());
        try {
            isolated(byOperation.keySet(), claims, byOperation, outcome, now, result);
            List<String> firstSight = new ArrayList<>();
            for (Map.Entry<String, List<Incoming>> operation : byOperation.entrySet()) {
                String id = operation.getKey();
                if (result.records().containsKey(id) || result.refused().contains(id)) {
                    continue;
                }
                if (record(operation.getValue(), outcome)) {
                    firstSight.add(id);
                } else {
                    result.refused().add(id);
                }
            }
            isolated(firstSight, claims, byOperation, outcome, now, result);
            return result;
        } catch (RuntimeException e) {
            result.leases().values().forEach(lease -> giveBack(lease, now));
            throw e;
        }
    }

    /** Claims and loads, first all at once, then, if the database refused a value, operation by operation. */
    private void isolated(Collection<String> ids, Map<String, ClaimRequest> claims, Map<String, List<Incoming>> byOperation,
                          BatchOutcome outcome, Instant now, Result result) {
        if (ids.isEmpty()) {
            return;
        }
        try {
            load(ids, claims, now, result);
        } catch (StoreException e) {
            if (!e.isBadValue() || ids.size() == 1) {
                refuseIfBadValue(e, ids, byOperation, outcome, result);
                return;
            }
            LOG.warn("the database refused a value of this batch ({}); claiming operation by operation", e.getMessage());
            for (String id : ids) {
                try {
                    load(List.of(id), claims, now, result);
                } catch (StoreException single) {
                    refuseIfBadValue(single, List.of(id), byOperation, outcome, result);
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

    private static void refuseIfBadValue(StoreException e, Collection<String> ids, Map<String, List<Incoming>> byOperation,
                                         BatchOutcome outcome, Result result) {
        if (!e.isBadValue()) {
            throw e;
        }
        for (String id : ids) {
            unstorable(byOperation.get(id), e, outcome);
            result.refused().add(id);
        }
    }

    /**
     * Records an operation seen for the first time from its first delivery in the batch. False, with its deliveries
     * dead-lettered, when it cannot be: the database refuses a value, or the operation id or idempotency key is
     * already bound to other parameters.
     */
    private boolean record(List<Incoming> deliveries, BatchOutcome outcome) {
        Recorded recorded;
        try {
            recorded = registry.record(deliveries.get(0).envelope(), OperationStatus.PENDING);
        } catch (StoreException e) {
            if (!e.isBadValue()) {
                throw e;
            }
            unstorable(deliveries, e, outcome);
            return false;
        }
        if (recorded.outcome() == Recorded.Outcome.CONFLICT) {
            deliveries.forEach(incoming -> outcome.deadLetter(incoming.delivery(), DeadLetterCodes.IDEMPOTENCY_CONFLICT,
                    recorded.conflict()));
            return false;
        }
        return true;
    }

    private static void unstorable(List<Incoming> deliveries, StoreException e, BatchOutcome outcome) {
        String reason = "the operation store cannot hold this dispatch: "
                + e.getMessage().lines().findFirst().orElse("") + " (SQLSTATE " + e.sqlState() + ")";
        for (Incoming incoming : deliveries) {
            LOG.warn("entry {} of {}: {}", incoming.entryId(), incoming.operationId(), reason);
            outcome.deadLetter(incoming.delivery(), DeadLetterCodes.UNSTORABLE_PAYLOAD, reason);
        }
    }

    private void giveBack(Lease lease, Instant now) {
        try {
            store.release(lease, now);
        } catch (RuntimeException e) {
            LOG.debug("could not give back the lease on {}; it expires on its own", lease.operationId(), e);
        }
    }
}
