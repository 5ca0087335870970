package dev.redrive.triage.decision;

import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionResult;

import java.util.List;
import java.util.UUID;

/**
 * One item of a durable batch as its chunk decided it, recorded in the chunk's transaction.
 *
 * @param blockedBy the preconditions that failed, for a BLOCKED item
 * @param commandId the redrive command issued, for a redriven item
 */
public record BatchItem(String operationId, Long dlqEntryId, DecisionOutcome decision, UUID commandId,
                        List<PreconditionId> blockedBy, String message) {

    /** The item as its result says. */
    static BatchItem of(DecisionResult result) {
        List<PreconditionId> failed = result.outcome() != DecisionOutcome.BLOCKED || result.preconditions() == null
                ? List.of() : result.preconditions().failed().stream().map(PreconditionResult::id).toList();
        return new BatchItem(result.operationId(), result.dlqEntryId(), result.outcome(), result.commandId(), failed,
                result.message());
    }
}
