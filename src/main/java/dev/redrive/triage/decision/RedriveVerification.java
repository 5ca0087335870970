package dev.redrive.triage.decision;

import dev.redrive.triage.detail.RedriveCommandStatus;

import java.util.UUID;

/**
 * Whether a redrive did what it should: the operation succeeded exactly once after the command.
 *
 * @param successfulAttemptsAfter successful attempts at or after the command's attempt
 * @param successfulAttempts      successful attempts of the operation over its whole life
 * @param effects                 effects the demo tools recorded for the idempotency key; null when the tool is not
 *                                one the demo tools play, so effects cannot be counted here
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
        Verdict verdict,
        String explanation) {

    public enum Verdict {
        /** The worker has not finished the command yet. */
        WAITING,
        /** One successful attempt after the command, one effect. */
        SUCCEEDED_ONCE,
        /** The command's attempt failed again. */
        FAILED,
        /** More than one success or more than one effect: the exactly-once guarantee was broken. */
        DUPLICATED
    }
}
