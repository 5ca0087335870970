package dev.redrive.model;

/**
 * What is known of the latest call an operation made to its tool, kept apart from its status so that no status change
 * (a deferral, a retry, a redrive, a sweep) can erase it. It alone decides whether the next attempt may call the tool
 * straight away or must first ask the tool's look-up whether the earlier call applied its effect.
 */
public enum LastCall {
    /** No call yet, or a look-up (or an operator's reconciliation) found the latest call not applied. */
    NONE,
    /** The tool answered the latest call with a classified failure; no look-up has confirmed it left no effect. */
    ANSWERED_FAILURE,
    /** A call may have started and no outcome was recorded for it (a crash, a lost answer, a lease taken over). */
    IN_DOUBT;

    /** Whether the next attempt asks the tool's look-up before it calls again. */
    public boolean needsLookUpFirst() {
        return this != NONE;
    }
}
