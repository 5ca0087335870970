package dev.redrive.store.operation;

import java.util.Objects;

/**
 * The OpenTelemetry span an attempt was recorded under, as W3C ids (32 and 16 lower-case hex digits): what a tracer
 * finds the attempt by.
 */
public record AttemptSpan(String traceId, String spanId) {
    public AttemptSpan {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
    }
}
