package dev.redrive.worker.protocol;

import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.envelope.InvalidEnvelopeException;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.worker.stream.Delivery;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The first phase of a batch: which deliveries are dispatches this worker goes on with. An empty entry is acked; what
 * is not a valid dispatch, or names a redrive command never issued for its operation, is dead-lettered as itself; a
 * dispatch of a tool another worker serves is handed on.
 */
final class DispatchIntake {
    private final WorkerSettings settings;
    private final EnvelopeCodec codec;
    private final OperationStore store;
    private final ToolServers toolServers;

    DispatchIntake(WorkerSettings settings, OperationStore store, ToolServers toolServers) {
        this.settings = settings;
        this.codec = new EnvelopeCodec(settings.maxPayloadBytes());
        this.store = store;
        this.toolServers = toolServers;
    }

    /** The valid dispatches of the batch; everything else is acked (an empty entry) or dead-lettered as itself. */
    List<Incoming> decode(List<Delivery> deliveries, BatchOutcome outcome, Instant now) {
        List<Incoming> valid = new ArrayList<>();
        for (Delivery delivery : deliveries) {
            if (delivery.fields().isEmpty()) {
                outcome.ack(delivery.entryId());
            } else if (!delivery.undecodableFields().isEmpty()) {
                outcome.deadLetter(delivery, InvalidEnvelopeException.INVALID_UTF8, "not UTF-8: "
                        + String.join(", ", delivery.undecodableFields()) + "; every field must be UTF-8 text");
            } else {
                Throwable failure = MessageFault.alone(() -> valid.add(new Incoming(delivery, codec.decode(delivery.fields()))));
                if (failure != null) {
                    outcome.deadLetterAlone(delivery, failure, "decoding it");
                }
            }
        }
        return servedHere(withKnownCommands(valid, outcome), outcome, now);
    }

    /**
     * The dispatches of tools this worker serves, and of tools no worker served within the grace (they are claimed and
     * dead-lettered as no_worker_for_tool). A dispatch of a tool another worker serves is handed on through the retry
     * set: due at once while one runs, after a wait while none does, so that it does not circle between the workers
     * that cannot run it. Its operation is left as it is.
     */
    private List<Incoming> servedHere(List<Incoming> valid, BatchOutcome outcome, Instant now) {
        List<Incoming> kept = new ArrayList<>(valid.size());
        Map<String, ToolServers.Verdict> verdicts = new HashMap<>();
        for (Incoming incoming : valid) {
            String tool = incoming.envelope().tool();
            ToolServers.Verdict verdict = settings.tools().containsKey(tool) ? null
                    : verdicts.computeIfAbsent(tool, unserved -> toolServers.of(unserved, now));
            if (verdict == null || verdict == ToolServers.Verdict.NONE) {
                kept.add(incoming);
            } else {
                Instant due = verdict == ToolServers.Verdict.LIVE ? now : now.plus(toolServers.awayWait());
                outcome.retries.add(incoming.envelope().dueAt(due));
                outcome.ack(incoming.entryId());
                settings.metrics().handedOn();
            }
        }
        return kept;
    }

    /**
     * A dispatch naming a redrive command that was never issued for its operation is dead-lettered as itself: left
     * alone it would record its operation (if new) as waiting, and the sweep would publish it again without the
     * command, so it would run after all.
     */
    private List<Incoming> withKnownCommands(List<Incoming> valid, BatchOutcome outcome) {
        Set<UUID> named = new HashSet<>();
        for (Incoming incoming : valid) {
            if (incoming.envelope().redriveCommandId() != null) {
                named.add(UUID.fromString(incoming.envelope().redriveCommandId()));
            }
        }
        if (named.isEmpty()) {
            return valid;
        }
        Map<UUID, String> issued = store.redriveCommands(named);
        List<Incoming> known = new ArrayList<>(valid.size());
        for (Incoming incoming : valid) {
            String command = incoming.envelope().redriveCommandId();
            if (command == null || incoming.operationId().equals(issued.get(UUID.fromString(command)))) {
                known.add(incoming);
            } else {
                outcome.deadLetter(incoming.delivery(), DeadLetterCodes.UNKNOWN_REDRIVE_COMMAND, "redrive_command_id "
                        + command + " names no redrive command issued for operation " + incoming.operationId()
                        + "; redrives are issued by `redrive OP`, which publishes their dispatch itself");
            }
        }
        return known;
    }
}
