package dev.redrive.triage.query;

import java.util.List;

/** Reads the DLQ: filtered pages, fingerprint groups and counts. Never changes anything. */
public interface DlqQueries {

    /**
     * One page in newest-first order.
     *
     * @param cursor    where to start; null for the first (newest) page
     * @param direction {@link PageDirection#NEXT} for older rows after the cursor, {@link PageDirection#PREVIOUS}
     *                  for newer rows before it
     * @param limit     rows per page, 1 to 1000
     */
    DlqPage page(DlqFilter filter, DlqCursor cursor, PageDirection direction, int limit);

    /** The first (newest) page. */
    default DlqPage firstPage(DlqFilter filter, int limit) {
        return page(filter, null, PageDirection.NEXT, limit);
    }

    /** The matching entries grouped by error fingerprint, largest group first. */
    List<FingerprintGroup> groups(DlqFilter filter);

    /** How many entries match: exact while that is cheap, the planner's estimate when it is large. */
    DlqCount count(DlqFilter filter);

    /** How many entries match, counted exactly whatever it costs. */
    long exactCount(DlqFilter filter);
}
