package dev.redrive.store.operation;

import dev.redrive.envelope.DispatchEnvelope;

import java.util.UUID;

/**
 * One operation a worker wants to lease for the attempt a dispatch carries. The claim is taken only for a dispatch
 * with the operation's own parameters: tool, idempotency key and payload (compared as jsonb values), and, since the
 * attempt is never older than the operation's, its tool schema version.
 *
 * @param deliveryId       the stream entry the lease is taken for
 * @param redriveCommandId the command the dispatch carries, null for an ordinary dispatch
 */
public record ClaimRequest(String operationId, int attempt, String deliveryId, UUID redriveCommandId, String tool,
                           String toolSchemaVersion, String idempotencyKey, String payload) {

    public static ClaimRequest of(DispatchEnvelope envelope, String deliveryId) {
        return new ClaimRequest(envelope.operationId().value(), envelope.attempt(), deliveryId,
                envelope.redriveCommandId() == null ? null : UUID.fromString(envelope.redriveCommandId()),
                envelope.tool(), envelope.toolSchemaVersion(), envelope.idempotencyKey(), envelope.payload());
    }
}
