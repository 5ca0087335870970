package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.OperationParameters;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.store.operation.OperationFacts;
import dev.redrive.worker.protocol.Verdict.Repair;
import dev.redrive.worker.stream.Delivery;

import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/** The protocol's checks of the facts, in order, for one dispatch and its operation record. */
final class Eligibility {
    private static final Set<String> OPEN_COMMAND = Set.of("ISSUED", "EXECUTING");

    private Eligibility() {
    }

    static Verdict decide(DispatchEnvelope envelope, OperationFacts record, Delivery delivery, Instant now,
                          int deliveryLimit) {
        UUID command = envelope.redriveCommandId() == null ? null : UUID.fromString(envelope.redriveCommandId());
        if (record.status() == OperationStatus.SUCCEEDED) {
            return command == null ? new Verdict.AlreadySucceeded()
                    : discard("operation already succeeded; redrive command " + command + " is not run again", Repair.NONE);
        }
        boolean carriesRecordedCommand = command != null && command.equals(record.redriveCommandId());
        if (record.runStatus() != RunStatus.RUNNING) {
            return new Verdict.Discard("run " + record.runId() + " is " + record.runStatus(),
                    record.status().canBecome(OperationStatus.CANCELLED) && !record.leaseIsLive(now),
                    carriesRecordedCommand, Repair.NONE);
        }
        if (envelope.attempt() < record.attempt()) {
            boolean lastAttemptCameFromHere = delivery.entryId().equals(record.lastDeliveryId());
            return discard("dispatch attempt " + envelope.attempt() + " is older than the operation's attempt "
                    + record.attempt(), record.status() == OperationStatus.RETRY_SCHEDULED && lastAttemptCameFromHere
                    ? Repair.REPUBLISH_RETRY : Repair.NONE);
        }
        switch (record.status()) {
            case DEAD_LETTERED -> {
                Repair repair = delivery.entryId().equals(record.lastDeliveryId())
                        ? Repair.REPUBLISH_DEAD_LETTER : Repair.NONE;
                return discard(carriesRecordedCommand
                        ? "redrive command " + command + " is already " + record.commandStatus()
                        : "operation is dead-lettered and the dispatch carries no valid redrive command", repair);
            }
            case DISCARDED, CANCELLED, SUPERSEDED -> {
                return discard("operation is " + record.status(), Repair.NONE);
            }
            default -> {
                // PENDING, RETRY_SCHEDULED and RUNNING go on to the command and lease checks.
            }
        }
        if (command != null || record.redriveCommandId() != null) {
            String refusal = commandRefusal(envelope, record, command);
            if (refusal != null) {
                return discard(refusal, Repair.NONE);
            }
        }
        if (record.leaseIsLive(now)) {
            return new Verdict.Duplicate("operation is running under the lease of " + record.leaseOwner() + " until "
                    + record.leaseExpiresAt(), !delivery.entryId().equals(record.leaseDeliveryId()));
        }
        if (record.status() == OperationStatus.RETRY_SCHEDULED && record.nextEligibleAt() != null
                && record.nextEligibleAt().isAfter(now) && envelope.attempt() >= record.attempt()) {
            return new Verdict.NotDue(record.nextEligibleAt());
        }
        boolean takeover = record.status() == OperationStatus.RUNNING;
        // Deliveries that claimed the operation and never settled it, not the broker's delivery count: that one also
        // counts deliveries skipped while another worker held the lease, which is nothing wrong with the message.
        if (record.processingDeliveries() >= deliveryLimit) {
            return new Verdict.Poison(takeover);
        }
        return new Verdict.Claim(takeover);
    }

    /**
     * Whether the dispatch asks for something else than the recorded operation, checked before every other rule (a
     * dispatch asking for something else is never a duplicate of the real one). The claim statement asks the same of
     * the claims it takes (jsonb equality of the payloads, which is what the canonical hash compares); the schema
     * version only counts from the operation's current attempt on, because a redrive may move it to the tool's
     * current version while dispatches of older attempts are still in the stream.
     */
    static String conflict(DispatchEnvelope envelope, OperationFacts record) {
        return OperationParameters.conflict(envelope, record.tool(), record.idempotencyKey(), record.payload(),
                record.toolSchemaVersion(), envelope.attempt() >= record.attempt());
    }

    private static String commandRefusal(DispatchEnvelope envelope, OperationFacts record, UUID command) {
        if (!Objects.equals(command, record.redriveCommandId())) {
            return command == null
                    ? "operation awaits redrive command " + record.redriveCommandId() + ", the dispatch carries none"
                    : "dispatch carries redrive command " + command + " but the operation awaits "
                    + (record.redriveCommandId() == null ? "none" : record.redriveCommandId().toString());
        }
        if (!OPEN_COMMAND.contains(record.commandStatus())) {
            return "redrive command " + command + " is already " + record.commandStatus();
        }
        if (envelope.attempt() != record.attempt() || !Objects.equals(record.commandToAttempt(), record.attempt())) {
            return "redrive command " + command + " is for attempt " + record.commandToAttempt()
                    + ", the dispatch carries attempt " + envelope.attempt();
        }
        return null;
    }

    private static Verdict discard(String reason, Repair repair) {
        return new Verdict.Discard(reason, false, false, repair);
    }
}
