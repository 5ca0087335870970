package dev.redrive.worker.protocol;

import dev.redrive.model.LastCall;
import dev.redrive.worker.tool.Reconciliation;

/**
 * The one rule that decides whether an attempt calls its tool. Every path into a call goes through it: a first claim,
 * a retry, a takeover of an expired lease, a claim after a deferral or a stranded sweep, a redrive. Only the fact of
 * the latest call ({@link LastCall}) counts, never the status the operation happens to be in, so that a tool is never
 * called again for a key while an earlier call may have applied its effect and no look-up found it not applied.
 */
final class CallRule {

    /** What an attempt does after the look-up it made first. */
    enum AfterLookUp {
        /** The earlier call did not apply its effect (or its tool answered it with a failure and cannot tell). */
        CALL,
        /** The earlier call applied its effect: the operation succeeds with the result the look-up found. */
        SUCCEED,
        /** An earlier call may have applied its effect and the tool cannot tell: dead-letter, side effect POSSIBLE. */
        DEAD_LETTER
    }

    private CallRule() {
    }

    static boolean lookUpFirst(LastCall prior) {
        return prior.needsLookUpFirst();
    }

    static AfterLookUp afterLookUp(LastCall prior, Reconciliation.Outcome found) {
        return switch (found) {
            case APPLIED -> AfterLookUp.SUCCEED;
            case NOT_APPLIED -> AfterLookUp.CALL;
            // The tool's own failure answer is then the only evidence, and it said the call failed; a call whose
            // outcome nobody saw is never repeated blind.
            case UNKNOWN -> prior == LastCall.IN_DOUBT ? AfterLookUp.DEAD_LETTER : AfterLookUp.CALL;
        };
    }
}
