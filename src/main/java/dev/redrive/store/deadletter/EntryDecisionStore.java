package dev.redrive.store.deadletter;

import dev.redrive.model.DecisionState;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Jdbc;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * What an operator's decision changes on DLQ entries: the worker enters them ({@link DeadLetterStore}), decisions and
 * corrections decide them here. Each change is one statement guarded by the state and version it starts from, checked
 * against the {@link DecisionState} table; each returns the number of rows changed, fewer when someone changed a row
 * first. Runs inside the decision's transaction.
 */
public final class EntryDecisionStore {
    private static final String DECIDE_ALL = """
            UPDATE dlq_entries e
               SET decision_state = ?, decided_by = ?, decided_at = ?, decision_reason = ?, version = e.version + 1
              FROM unnest(?::text[]::bigint[], ?::text[]::int[]) AS v(id, version)
             WHERE e.id = v.id AND e.decision_state = ? AND e.version = v.version""";

    private static final String SUPERSEDE = """
            UPDATE dlq_entries
               SET decision_state = 'SUPERSEDED', superseded_by = ?, decided_by = ?, decided_at = ?,
                   decision_reason = ?, version = version + 1
             WHERE id = ? AND decision_state = 'OPEN' AND version = ?""";

    private static final String SETTLE_SIDE_EFFECT = """
            UPDATE dlq_entries SET side_effect = ?, version = version + 1
             WHERE operation_id = ? AND decision_state = 'OPEN' AND %s""".formatted(DeadLetterStore.OWN_ENTRY);

    private final Jdbc jdbc;

    /** An open entry at the version its decision is guarded by. */
    public record EntryVersion(long entryId, int version) {
    }

    public EntryDecisionStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Decides open entries, each at the version given; returns how many were still open at that version. */
    public int decideAll(List<EntryVersion> entries, DecisionState decision, String operator, String reason,
                         Instant at) {
        DecisionState.OPEN.checkTransition(decision);
        return jdbc.update(DECIDE_ALL, decision, operator, at, reason, column(entries, EntryVersion::entryId),
                column(entries, EntryVersion::version), DecisionState.OPEN);
    }

    /** Marks an open entry SUPERSEDED by the correction {@code correctionId}; 0 when it was decided or changed. */
    public int supersede(long entryId, int version, String correctionId, String operator, String reason, Instant at) {
        DecisionState.OPEN.checkTransition(DecisionState.SUPERSEDED);
        return jdbc.update(SUPERSEDE, correctionId, operator, at, reason, entryId, version);
    }

    /** Records a reconciled side effect on the operation's own open entry, whose version moves on. */
    public int settleSideEffect(String operationId, SideEffectState state) {
        return jdbc.update(SETTLE_SIDE_EFFECT, state, operationId);
    }

    private static <T> String[] column(List<T> rows, Function<T, Object> field) {
        return rows.stream().map(field).map(value -> value == null ? null : value.toString()).toArray(String[]::new);
    }
}
