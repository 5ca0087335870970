package dev.redrive.store.reconciliation;

/** What a reconciliation found out about an operation's side effect. */
public enum ReconciliationOutcome {
    /** The effect happened: the operation is resolved as succeeded, never re-run. */
    APPLIED,
    /** The effect did not happen: a redrive is safe. */
    NOT_APPLIED,
    /** Nobody could tell: the side effect stays POSSIBLE. */
    UNKNOWN
}
