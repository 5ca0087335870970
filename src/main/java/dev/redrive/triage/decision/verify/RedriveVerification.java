package dev.redrive.triage.decision.verify;

import dev.redrive.triage.detail.RedriveCommandStatus;

import java.util.UUID;

/**
 * Whether a redrive did what it should: the operation succeeded once after the command, and the tool counts one
 * effect for its idempotency key. The one verdict that {@code op show}, the console's wizard and reports give.
 *
 * @param successfulAttemptsAfter successful attempts at or after the command's attempt
 * @param successfulAttempts      successful attempts of the operation over its whole life
 * @param effects                 effects the tool counts for the idempotency key; null when the tool cannot count them
 *                                (see {@link dev.redrive.worker.tool.Tool#countEffects})
 * @param effectEvidence          what the tool was asked and answered, or why it could not be asked
 */
public record RedriveVerification(
        UUID commandId,
        String operationId,
        String idempotencyKey,
        RedriveCommandStatus commandStatus,
        int toAttempt,
        long successfulAttemptsAfter,
        long successfulAttempts,
        Long effects,
        String effectEvidence,
        Verdict verdict,
        String explanation) {

    public enum Verdict {
        /** The worker has not finished the command yet. */
        WAITING,
        /** One successful attempt after the command, and the tool counts one effect. */
        SUCCEEDED_ONCE,
        /** One successful attempt after the command; the tool cannot count its effects, so only the attempts are known. */
        SUCCEEDED_NOT_VERIFIABLE,
        /** One successful attempt after the command, yet the tool counts no effect for the key. */
        NO_EFFECT,
        /** The command's attempt failed again. */
        FAILED,
        /** More than one success or more than one effect: the exactly-once guarantee was broken. */
        DUPLICATED
    }
}
