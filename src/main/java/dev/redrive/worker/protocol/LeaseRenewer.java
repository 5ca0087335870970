package dev.redrive.worker.protocol;

import dev.redrive.store.operation.OperationStore;
import dev.redrive.worker.stream.DispatchStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The heartbeat of the attempts in flight: extends all their leases by a full lease duration in one guarded statement,
 * then resets the idle time of their stream entries, so that a tool call may outlast the lease duration without any
 * worker (this one included) re-claiming its entry. A lease that was taken over is not renewed (the statement is
 * guarded by the fencing token) and its entry is not touched; fencing keeps its attempt from committing.
 */
final class LeaseRenewer {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseRenewer.class);

    private final OperationStore store;
    private final DispatchStream stream;
    private final InFlight inFlight;
    private final Clock clock;
    private final Duration leaseDuration;
    private final String owner;

    LeaseRenewer(OperationStore store, DispatchStream stream, InFlight inFlight, Clock clock, Duration leaseDuration,
                 String owner) {
        this.store = store;
        this.stream = stream;
        this.inFlight = inFlight;
        this.clock = clock;
        this.leaseDuration = leaseDuration;
        this.owner = owner;
    }

    /** Renews every lease still held. */
    void renewAll() {
        List<InFlight.Held> held = inFlight.held();
        if (held.isEmpty()) {
            return;
        }
        Instant expiresAt = clock.instant().truncatedTo(ChronoUnit.MILLIS).plus(leaseDuration);
        Set<String> renewed = store.renew(held.stream().map(InFlight.Held::lease).toList(), owner, expiresAt);
        List<String> entries = new ArrayList<>(renewed.size());
        for (InFlight.Held attempt : held) {
            if (renewed.contains(attempt.lease().operationId())) {
                inFlight.renewed(attempt, expiresAt);
                entries.add(attempt.entryId());
            } else {
                // Taken over, committed since the snapshot, or its row was locked: its entry is not touched either.
                LOG.debug("lease on {} (fencing token {}) not renewed", attempt.lease().operationId(),
                        attempt.lease().fencingToken());
            }
        }
        stream.touch(entries);
    }
}
