package dev.redrive.triage.query;

import java.util.Optional;

/**
 * A filter turned into conditions on {@code dlq_summary}, the per-(fingerprint, class, tool, decision state) counts
 * that triggers keep up to date: only a filter on those columns can be answered there, exactly and without reading
 * the entries.
 */
final class DlqSummaryWhere {
    private DlqSummaryWhere() {
    }

    /** The summary's conditions for the filter, or empty when the filter narrows by anything the summary lacks. */
    static Optional<DlqWhere> of(DlqFilter filter) {
        boolean beyondSummary = filter.runId() != null || filter.traceOrCorrelationId() != null
                || filter.enteredFrom() != null || filter.enteredTo() != null || filter.sideEffect() != null
                || filter.text() != null;
        if (beyondSummary) {
            return Optional.empty();
        }
        // A cell that lost its last entry stays, with 0 entries, until one comes back.
        DlqWhere where = new DlqWhere().and("entries > 0");
        if (filter.errorClass() != null) {
            where.and("error_class = ?", filter.errorClass());
        }
        if (filter.tool() != null) {
            where.and("tool = ?", filter.tool());
        }
        if (filter.decisionState() != null) {
            where.and("decision_state = ?", filter.decisionState());
        }
        if (filter.fingerprint() != null) {
            where.and("error_fingerprint = ?", filter.fingerprint());
        }
        return Optional.of(where);
    }
}
