package dev.redrive.triage.query;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/** Reads the DLQ: filtered pages, fingerprint groups and counts. Never changes anything. */
public interface DlqQueries {

    /**
     * One page in the given order.
     *
     * @param cursor    where to start; null for the first page in that order
     * @param direction {@link PageDirection#NEXT} for the rows after the cursor, {@link PageDirection#PREVIOUS} for
     *                  the rows before it
     * @param limit     rows per page, 1 to 1000
     */
    DlqPage page(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit);

    /** One page in newest-first order. */
    default DlqPage page(DlqFilter filter, DlqCursor cursor, PageDirection direction, int limit) {
        return page(filter, DlqOrder.NEWEST_FIRST, cursor, direction, limit);
    }

    /** The first (newest) page. */
    default DlqPage firstPage(DlqFilter filter, int limit) {
        return firstPage(filter, DlqOrder.NEWEST_FIRST, limit);
    }

    /** The first page in the given order. */
    default DlqPage firstPage(DlqFilter filter, DlqOrder order, int limit) {
        return page(filter, order, null, PageDirection.NEXT, limit);
    }

    /** The entries with these ids as they are now, in no particular order; ids that do not exist are left out. */
    List<DlqRow> rows(Collection<Long> ids);

    /**
     * Of the entries with these ids, those the filter matches, in no particular order: how the console tells which
     * of the entries that have just arrived belong to the list it shows.
     */
    Set<Long> matching(DlqFilter filter, Collection<Long> ids);

    /**
     * Of these fingerprints, those that no entry but the given ones has: the failure groups these entries started, as
     * the console tells a new kind of failure from more of a known one.
     */
    Set<String> startedBy(Collection<String> fingerprints, Collection<Long> ids);

    /** The matching entries grouped by error fingerprint, largest group first. */
    List<FingerprintGroup> groups(DlqFilter filter);

    /**
     * How many entries match: exact while that is cheap, the planner's estimate when it is large, and for a text
     * search an estimate from a sample of the table when the phrase is common, else exact up to
     * {@link JdbcDlqQueries#TEXT_COUNT_CAP} and "at least" that with the sample's estimate beyond.
     */
    DlqCount count(DlqFilter filter);

    /** How many entries match, counted exactly whatever it costs. */
    long exactCount(DlqFilter filter);

    /**
     * Whether any matching entry is its operation's own (entered by the worker for one of the operation's attempts):
     * the entries a batch takes. A message dead-lettered as itself, or an entry that merely names an operation, is not.
     */
    boolean anyOwnEntry(DlqFilter filter);

    /** The tools of the matching entries, each once (for a policy that covers decisions by tool). */
    Set<String> tools(DlqFilter filter);
}
