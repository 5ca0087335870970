package dev.redrive.triage.query;

import java.util.ArrayList;
import java.util.List;

/**
 * A filter turned into SQL: fixed condition fragments joined with AND, and the values they bind in order. Nothing a
 * user typed ever becomes part of the SQL text.
 */
final class DlqWhere {
    /** The expression must stay exactly the one dlq_error_text_idx is built on, or the GIN index is not used. */
    static final String TEXT_MATCH = "to_tsvector('simple', error_message) @@ websearch_to_tsquery('simple', ?)";

    private final List<String> conditions = new ArrayList<>();
    private final List<Object> params = new ArrayList<>();

    static DlqWhere of(DlqFilter filter) {
        DlqWhere where = new DlqWhere();
        where.add("error_class = ?", filter.errorClass());
        where.add("tool = ?", filter.tool());
        where.add("run_id = ?", filter.runId());
        String trace = filter.traceOrCorrelationId();
        if (trace != null) {
            // Each alternative has an index of its own, so the planner ORs three index scans.
            String w3c = W3cTraceId.of(trace).orElse(null);
            if (w3c == null) {
                where.and("(trace_id = ? OR correlation_id = ?)", trace, trace);
            } else {
                where.and("(trace_id = ? OR correlation_id = ? OR w3c_trace_id = ?)", trace, trace, w3c);
            }
        }
        where.add("entered_at >= ?", filter.enteredFrom());
        where.add("entered_at < ?", filter.enteredTo());
        where.add("side_effect = ?", filter.sideEffect());
        where.add("decision_state = ?", filter.decisionState());
        where.add(TEXT_MATCH, filter.text());
        where.add("error_fingerprint = ?", filter.fingerprint());
        return where;
    }

    DlqWhere and(String condition, Object... values) {
        conditions.add(condition);
        params.addAll(List.of(values));
        return this;
    }

    /** " WHERE a AND b", or "" without conditions. */
    String sql() {
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    Object[] params(Object... trailing) {
        List<Object> all = new ArrayList<>(params);
        all.addAll(List.of(trailing));
        return all.toArray();
    }

    private void add(String condition, Object value) {
        if (value != null) {
            conditions.add(condition);
            params.add(value);
        }
    }
}
