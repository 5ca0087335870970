package dev.redrive.worker.protocol;

import dev.redrive.RuntimeVersion;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.InvalidEnvelopeException;
import dev.redrive.model.FailureClass;
import dev.redrive.store.StorableText;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.store.deadletter.DeadLetterEvent;
import dev.redrive.store.deadletter.MessageDeadLetter;
import dev.redrive.store.operation.Deferral;
import dev.redrive.store.operation.DiscardedDispatch;
import dev.redrive.worker.stream.Delivery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a batch leaves behind besides the attempts it claimed, gathered by the phases and written at the end: messages
 * to dead-letter alone, discards and deferrals to record, retries to put back in the retry set, DLQ events to announce
 * again, and the entries to ack once all of that is durable.
 */
final class BatchOutcome {
    private static final Logger LOG = LoggerFactory.getLogger(BatchOutcome.class);

    final List<MessageDeadLetter> deadLetters = new ArrayList<>();
    final List<DiscardedDispatch> discards = new ArrayList<>();
    final List<Deferral> deferrals = new ArrayList<>();
    final List<DispatchEnvelope> retries = new ArrayList<>();
    final List<DeadLetterEvent> reannounce = new ArrayList<>();
    final List<String> acks = new ArrayList<>();
    private final Instant now;

    BatchOutcome(Instant now) {
        this.now = now;
    }

    /**
     * Dead-letters a message as itself (INVALID_INPUT, no operation touched) and acks it once that is written. The
     * message is cut to what the entry keeps (it may quote a field a megabyte long).
     */
    void deadLetter(Delivery delivery, String code, String message) {
        deadLetters.add(new MessageDeadLetter(delivery.stream(), delivery.entryId(), delivery.deliveryCount(),
                delivery.consumer(), delivery.fields(), FailureClass.INVALID_INPUT, code,
                StorableText.of(message, DeadLetterStore.MAX_ERROR_MESSAGE), RuntimeVersion.wireValue(), now));
    }

    /** Dead-letters a message as itself for a failure of its own (see {@link MessageFault}); the batch goes on. */
    void deadLetterAlone(Delivery delivery, Throwable failure, String doing) {
        if (!(failure instanceof InvalidEnvelopeException)) {
            LOG.warn("entry {} failed while {}; dead-lettering it alone", delivery.entryId(), doing, failure);
        }
        deadLetter(delivery, MessageFault.code(failure), MessageFault.describe(failure, doing));
    }

    void ack(String entryId) {
        acks.add(entryId);
    }
}
