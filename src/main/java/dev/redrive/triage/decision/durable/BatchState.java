package dev.redrive.triage.decision.durable;

/**
 * Where a durable batch stands. Only DONE is final: RUNNING (once its owner's lease ran out), STOPPED and FAILED can be
 * resumed (the guards are in {@link BatchStore}).
 */
public enum BatchState {
    /** Being worked off, or left by a process that died: resumable once its owner's lease ran out. */
    RUNNING,
    /** Stopped between chunks by its operator: the items not reached are untouched until it is resumed. */
    STOPPED,
    /** Every item of its selection was taken. */
    DONE,
    /** Stopped by a failure (e.g. the database refused the decisions): resumable once the cause is fixed. */
    FAILED
}
