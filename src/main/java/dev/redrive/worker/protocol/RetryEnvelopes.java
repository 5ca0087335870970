package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.store.operation.OperationFacts;

import java.time.Instant;
import java.util.UUID;

/**
 * Builds the dispatch that waits in the retry set from the operation's record, never from the message that failed:
 * rebuilt after a crash from the same facts, it is the same retry-set member.
 */
final class RetryEnvelopes {
    private RetryEnvelopes() {
    }

    static DispatchEnvelope of(OperationFacts record, int attempt, Instant nextEligibleAt, FailureClass why,
                               UUID commandId, Instant dispatchedAt) {
        return new DispatchEnvelope(OperationId.parse(record.operationId()), attempt, record.tool(),
                record.toolSchemaVersion(), record.idempotencyKey(), record.payload(), record.traceId(),
                record.correlationId(), record.runtimeVersion(), dispatchedAt, nextEligibleAt, why,
                commandId == null ? null : commandId.toString(), record.approvalId(), record.traceparent());
    }

    /** The retry as the record describes it now (a scheduled retry or a deferral already committed). */
    static DispatchEnvelope fromRecord(OperationFacts record) {
        return of(record, record.attempt(), record.nextEligibleAt(), record.lastErrorClass(),
                record.redriveCommandId(), record.updatedAt());
    }
}
