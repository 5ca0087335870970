package dev.redrive.triage.decision;

import dev.redrive.triage.precondition.PreconditionReport;

import java.time.Instant;
import java.util.UUID;

/**
 * What became of one decision.
 *
 * @param operationId   null for a DLQ entry without an operation (a message dead-lettered as itself)
 * @param message       one line for an operator: what happened, or why not (e.g. "already decided by bob at T")
 * @param preconditions the checks the decision was taken on (the in-transaction re-check when it got that far)
 * @param commandId     the redrive command, for a recorded redrive
 * @param newAttempt    the attempt the redrive dispatched
 */
public record DecisionResult(
        DecisionKind kind,
        DecisionOutcome outcome,
        String operationId,
        Long dlqEntryId,
        String message,
        PreconditionReport preconditions,
        UUID commandId,
        Integer newAttempt,
        String operator,
        Instant decidedAt) {

    public boolean recorded() {
        return outcome.recorded();
    }

    /** The same result told with another line, e.g. with a hint of what to do instead. */
    public DecisionResult withMessage(String line) {
        return new DecisionResult(kind, outcome, operationId, dlqEntryId, line, preconditions, commandId, newAttempt,
                operator, decidedAt);
    }

    /** What was decided, for a line: the operation id, or "entry N" for a DLQ entry without an operation. */
    public String subject() {
        return operationId != null ? operationId : "entry " + dlqEntryId;
    }
}
