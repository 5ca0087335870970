package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.store.operation.ClaimRequest;
import dev.redrive.worker.stream.Delivery;

/** A delivery of a batch that decoded to a valid dispatch. */
record Incoming(Delivery delivery, DispatchEnvelope envelope) {
    String operationId() {
        return envelope.operationId().value();
    }

    String entryId() {
        return delivery.entryId();
    }

    ClaimRequest claim() {
        return ClaimRequest.of(envelope, delivery.entryId());
    }
}
