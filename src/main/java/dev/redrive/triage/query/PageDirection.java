package dev.redrive.triage.query;

/** Which way to page from a cursor in the DLQ's newest-first order. */
public enum PageDirection {
    /** Older entries: the rows after the cursor. */
    NEXT,
    /** Newer entries: the rows before the cursor. */
    PREVIOUS
}
