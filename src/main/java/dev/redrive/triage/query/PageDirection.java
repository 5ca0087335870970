package dev.redrive.triage.query;

/** Which way to page from a cursor in the order the page is asked in ({@link DlqOrder}). */
public enum PageDirection {
    /** The rows after the cursor: older ones newest-first, newer ones oldest-first. */
    NEXT,
    /** The rows before the cursor: newer ones newest-first, older ones oldest-first. */
    PREVIOUS
}
