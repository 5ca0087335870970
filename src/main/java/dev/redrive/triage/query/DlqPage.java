package dev.redrive.triage.query;

import java.util.List;

/**
 * One page of DLQ rows in the order that was asked for ({@link DlqOrder}).
 *
 * @param rows     the rows in that order, whichever direction was asked for
 * @param next     pass with {@link PageDirection#NEXT} for the page after this one; null when there is none
 * @param previous pass with {@link PageDirection#PREVIOUS} for the page before this one; null on the first page
 * @param hasMore  whether more rows exist beyond this page in the direction that was asked for
 */
public record DlqPage(List<DlqRow> rows, DlqCursor next, DlqCursor previous, boolean hasMore) {

    public DlqPage {
        rows = List.copyOf(rows);
    }

    public boolean hasNext() {
        return next != null;
    }

    public boolean hasPrevious() {
        return previous != null;
    }
}
