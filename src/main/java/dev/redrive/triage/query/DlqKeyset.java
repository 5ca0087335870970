package dev.redrive.triage.query;

/**
 * Where a page starts and which way it reads: the rows past the cursor in (entered_at, id) order, ascending or
 * descending. Paging backwards reads the other way from the cursor; the caller turns those rows back into the asked
 * order.
 */
record DlqKeyset(DlqCursor cursor, boolean ascending) {

    static DlqKeyset of(DlqOrder order, DlqCursor cursor, PageDirection direction) {
        boolean backwards = cursor != null && direction == PageDirection.PREVIOUS;
        return new DlqKeyset(cursor, (order == DlqOrder.OLDEST_FIRST) != backwards);
    }

    /** The filter's conditions and, past a cursor, the bound on (entered_at, id). */
    DlqWhere bound(DlqWhere where) {
        if (cursor != null) {
            where.and(ascending ? "(entered_at, id) > (?, ?)" : "(entered_at, id) < (?, ?)", cursor.enteredAt(), cursor.id());
        }
        return where;
    }

    /** " ORDER BY ..." in the reading order. */
    String orderBy() {
        return ascending ? " ORDER BY entered_at ASC, id ASC" : " ORDER BY entered_at DESC, id DESC";
    }

    /** " ORDER BY ... LIMIT ?" in the reading order. */
    String orderByLimit() {
        return orderBy() + " LIMIT ?";
    }
}
