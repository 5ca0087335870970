package dev.redrive.triage.correction;

import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.precondition.PreconditionReport;

import java.time.Instant;
import java.util.UUID;

/**
 * What became of one correction.
 *
 * @param operationId    the corrected (original) operation
 * @param correctionId   the new operation, the node's next logical attempt: set when recorded, or would be on a dry run
 * @param idempotencyKey the correction's own key, derived from its operation id
 * @param message        one line for an operator: what happened, or why not
 * @param preconditions  the redrive checks and the payload check the correction was taken on
 * @param diff           what the correction changes in the payload, secrets masked; null when the payload was refused
 */
public record CorrectionResult(
        DecisionOutcome outcome,
        String operationId,
        Long dlqEntryId,
        String correctionId,
        String idempotencyKey,
        UUID commandId,
        String toolSchemaVersion,
        String message,
        PreconditionReport preconditions,
        PayloadDiff diff,
        String operator,
        Instant decidedAt) {
}
