package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.store.operation.DeliveryInfo;
import dev.redrive.store.operation.Lease;
import dev.redrive.store.operation.OperationFacts;
import dev.redrive.worker.stream.Delivery;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;

import java.time.Instant;

/** One claimed attempt: the delivery it came from, the dispatch, the facts loaded for it, its lease and its tool. */
record Job(Delivery delivery, DispatchEnvelope envelope, OperationFacts record, Lease lease, Tool tool) {

    String operationId() {
        return lease.operationId();
    }

    DeliveryInfo deliveryInfo() {
        return new DeliveryInfo(delivery.stream(), delivery.entryId(), delivery.deliveryCount(), delivery.consumer());
    }

    /**
     * The trace context the attempt continues: the dispatch's, else the one its operation was first dispatched with
     * (a redrive or a sweep publishes without one).
     */
    String traceparent() {
        return envelope.traceparent() != null ? envelope.traceparent() : record.traceparent();
    }

    /** The call, with the end of the lease as this worker holds it when the call starts as its deadline. */
    ToolCall toolCall(Instant leaseEnd) {
        return new ToolCall(record.operationId(), record.idempotencyKey(), lease.attempt(), record.payload(),
                record.traceId(), record.correlationId(), leaseEnd);
    }
}
