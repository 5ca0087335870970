package dev.redrive.triage.decision;

/** How one decision on one item ended. */
public enum DecisionOutcome {
    /** The decision is committed (and, for a redrive, its dispatch published). */
    DONE,
    /** Dry run: every check passes, nothing was written. */
    WOULD_PASS,
    /** A precondition failed; nothing was written or published. */
    BLOCKED,
    /** Someone else decided the entry first; nothing was written. */
    ALREADY_DECIDED,
    /** The operation store refused the writes (e.g. a read-only role); nothing was written. */
    REFUSED,
    /** The redrive is committed but its dispatch could not be published: a worker's sweep re-publishes it. */
    NOT_PUBLISHED;

    /** The decision is recorded in the store. */
    public boolean recorded() {
        return this == DONE || this == NOT_PUBLISHED;
    }
}
