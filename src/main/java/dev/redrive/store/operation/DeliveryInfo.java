package dev.redrive.store.operation;

/** The broker delivery an attempt came from: diagnostics only, never identity. */
public record DeliveryInfo(String stream, String entryId, long deliveryCount, String consumer) {
}
