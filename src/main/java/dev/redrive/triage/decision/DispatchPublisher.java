package dev.redrive.triage.decision;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.worker.client.WorkerClient;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/** Publishes committed redrives' dispatches: through the embedded {@link WorkerClient} in production. */
@FunctionalInterface
public interface DispatchPublisher {
    /** @return the stream entry id the broker gave the dispatch */
    String publish(DispatchEnvelope envelope);

    /**
     * Publishes the dispatches of a chunk of redrives committed together, in order; one at a time unless the publisher
     * can do better.
     *
     * @return the stream entry ids, in order
     */
    default List<String> publishAll(List<DispatchEnvelope> envelopes) {
        return envelopes.stream().map(this::publish).toList();
    }

    /**
     * Publishes again the committed redrives among {@code commands} whose dispatch is not in the stream since
     * {@code since} (a batch's process died between a chunk's commit and its publishing). A publisher that cannot tell
     * leaves them to a running worker's sweep.
     *
     * @return how many were published again
     */
    default int publishMissing(Collection<UUID> commands, Instant since) {
        return 0;
    }

    /** Publishes through a worker client, a chunk in one round trip; the client is asked for on first use. */
    static DispatchPublisher of(Supplier<WorkerClient> client) {
        return new DispatchPublisher() {
            @Override
            public String publish(DispatchEnvelope envelope) {
                return client.get().publish(envelope);
            }

            @Override
            public List<String> publishAll(List<DispatchEnvelope> envelopes) {
                return client.get().publishAll(envelopes);
            }

            @Override
            public int publishMissing(Collection<UUID> commands, Instant since) {
                return client.get().publishMissing(commands, since);
            }
        };
    }
}
