package dev.redrive.triage.decision;

import dev.redrive.envelope.DispatchEnvelope;

/** Publishes a committed redrive's dispatch: {@code WorkerClient::publish} in production. */
@FunctionalInterface
public interface DispatchPublisher {
    /** @return the stream entry id the broker gave the dispatch */
    String publish(DispatchEnvelope envelope);
}
