package dev.redrive.triage.decision.durable;

import dev.redrive.model.DecisionState;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.query.DlqCursor;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.DlqOrder;
import dev.redrive.triage.query.DlqPage;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.DlqRow;
import dev.redrive.triage.query.PageDirection;

import java.util.ArrayList;
import java.util.List;

/** Walks a durable batch's selection in keyset order, a chunk at a time, from the position its row holds. */
abstract class SelectionWalk {

    /**
     * The items of one chunk, the keys they stand at, the open entries skipped for having no operation of their own,
     * and the position after the chunk.
     */
    record Chunk(List<DecisionTarget> targets, List<String> keys, List<Long> leftOutIds, String positionBefore,
                 String positionAfter) {

        int leftOut() {
            return leftOutIds.size();
        }

        boolean isEmpty() {
            return targets.isEmpty() && leftOutIds.isEmpty();
        }
    }

    static SelectionWalk of(DurableBatch batch, DlqQueries queries) {
        BatchSelection selection = batch.selection();
        if (selection.operationIds() != null) {
            return new IdWalk(selection.operationIds(), batch.position());
        }
        return new FilterWalk(queries, open(selection.filter()), batch.position());
    }

    /** The open entries of those the filter matches: a batch decides nothing else. */
    static DlqFilter open(DlqFilter filter) {
        return filter.toBuilder().decisionState(DecisionState.OPEN).build();
    }

    abstract Chunk next(int size);

    /** The chunk was committed: the next one starts after it. */
    abstract void advanced(Chunk chunk);

    /** Operation ids in the order given; the position is how many were taken. */
    private static final class IdWalk extends SelectionWalk {
        private final List<String> ids;
        private int from;
        private String position;

        IdWalk(List<String> ids, String position) {
            this.ids = ids;
            this.from = position == null ? 0 : Integer.parseInt(position);
            this.position = position;
        }

        @Override
        Chunk next(int size) {
            List<DecisionTarget> targets = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            for (int i = from; i < Math.min(ids.size(), from + size); i++) {
                targets.add(DecisionTarget.operation(ids.get(i)));
                keys.add(Integer.toString(i + 1));
            }
            return new Chunk(targets, keys, List.of(), position, keys.isEmpty() ? null : keys.get(keys.size() - 1));
        }

        @Override
        void advanced(Chunk chunk) {
            from += chunk.targets().size();
            position = chunk.positionAfter();
        }
    }

    /**
     * The open entries a filter matches, newest first, a keyset page per chunk; the position is the DLQ cursor of the
     * last entry taken. Entries that enter the DLQ after the batch began are newer than its position and not taken.
     */
    private static final class FilterWalk extends SelectionWalk {
        private final DlqQueries queries;
        private final DlqFilter filter;
        private String position;

        FilterWalk(DlqQueries queries, DlqFilter filter, String position) {
            this.queries = queries;
            this.filter = filter;
            this.position = position;
        }

        @Override
        Chunk next(int size) {
            DlqPage page = queries.page(filter, DlqOrder.NEWEST_FIRST, position == null ? null : DlqCursor.parse(position),
                    PageDirection.NEXT, size);
            List<DecisionTarget> targets = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            List<Long> leftOut = new ArrayList<>();
            String last = null;
            for (DlqRow row : page.rows()) {
                last = new DlqCursor(row.enteredAt(), row.id()).token();
                if (row.ownEntry()) {
                    targets.add(DecisionTarget.of(row));
                    keys.add(last);
                } else {
                    leftOut.add(row.id());
                }
            }
            return new Chunk(targets, keys, leftOut, position, last);
        }

        @Override
        void advanced(Chunk chunk) {
            position = chunk.positionAfter();
        }
    }
}
