package dev.redrive.store.deadletter;

import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * An operation's dead-lettered attempt as its DLQ entry keeps it beyond the operation row (identity, versions, payload
 * and the attempt history are read from the operation's rows). The operation store builds it from the attempt it
 * commits, so this package never needs the operation store's types.
 *
 * @param stream          the stream of the delivery that gave up, null when the attempt ran without one
 * @param rawMessage      the stream entry's fields as received
 * @param deliveryHistory JSON array of the deliveries that crashed the handler (may be {@code []})
 * @param fingerprint     the stable grouping hash of the error
 * @param runtimeVersion  the version of the worker that gave up
 */
public record OperationDeadLetter(String operationId, int attempt, String stream, String entryId,
                                  Integer deliveryCount, String consumer, FailureClass errorClass, String errorCode,
                                  String errorMessage, SideEffectState sideEffect, Map<String, String> rawMessage,
                                  String deliveryHistory, String fingerprint, String runtimeVersion,
                                  Instant enteredAt) {
    public OperationDeadLetter {
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(errorClass, "errorClass");
        Objects.requireNonNull(sideEffect, "sideEffect");
    }

    /** The entry's dedup key: see {@link DeadLetterStore#operationDedupKey}. */
    public String dedupKey() {
        return DeadLetterStore.operationDedupKey(operationId, attempt);
    }
}
