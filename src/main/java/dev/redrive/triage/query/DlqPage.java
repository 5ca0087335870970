package dev.redrive.triage.query;

import java.util.List;

/**
 * One page of DLQ rows, newest first.
 *
 * @param rows     the rows, newest first, whichever direction was asked for
 * @param next     pass with {@link PageDirection#NEXT} for the older page; null when there is none
 * @param previous pass with {@link PageDirection#PREVIOUS} for the newer page; null when this is the first page
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
