package dev.redrive.store.operation;

import dev.redrive.model.LastCall;

import java.time.Instant;
import java.util.UUID;

/**
 * A claimed right to execute one attempt of an operation. Every later write for that attempt is guarded by the
 * fencing token: once another worker has claimed the operation, the token no longer matches and the write is refused.
 *
 * @param takeover             the operation was RUNNING under an expired lease: an earlier attempt may have acted
 *                             already
 * @param processingDeliveries the deliveries that have claimed the operation since it last settled, this one included
 * @param priorCall            what was known of the operation's latest tool call before this claim: whether this
 *                             attempt must look the key up before it calls, and what giving the lease back unstarted
 *                             restores
 */
public record Lease(String operationId, int attempt, String owner, long fencingToken, Instant claimedAt,
                    Instant expiresAt, UUID redriveCommandId, boolean takeover, int processingDeliveries,
                    LastCall priorCall) {

    /** The same lease, extended to {@code newExpiry}. */
    public Lease renewedUntil(Instant newExpiry) {
        return new Lease(operationId, attempt, owner, fencingToken, claimedAt, newExpiry, redriveCommandId, takeover,
                processingDeliveries, priorCall);
    }
}
