package dev.redrive.triage.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.model.DecisionState;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.StoreException;
import dev.redrive.store.deadletter.DeadLetterStore;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@link DlqQueries} on PostgreSQL. Pages are keyset-paged on (entered_at, id), which every DLQ index ends with and
 * which PostgreSQL scans either way, so a page deep in a million entries costs the same as the first one in both
 * orders.
 */
public final class JdbcDlqQueries implements DlqQueries {
    /** Above this many estimated rows a count returns the planner's estimate instead of counting. */
    public static final long EXACT_COUNT_LIMIT = 100_000;
    public static final int MAX_PAGE_SIZE = 1000;

    private static final String ROW_COLUMNS = """
            SELECT id, operation_id, run_id, node_id, tool, error_class, error_message, error_fingerprint,
                   side_effect, decision_state, entered_at, attempt, trace_id, correlation_id, version,
                   (%s) IS TRUE AS own_entry
            FROM dlq_entries""".formatted(DeadLetterStore.OWN_ENTRY);

    // One bool_or per class instead of array_agg(DISTINCT ...): no sort per group, so dlq_group_idx answers it alone.
    private static final String GROUPS = """
            SELECT g.*,
                   (SELECT s.error_message FROM dlq_entries s
                     WHERE s.error_fingerprint = g.error_fingerprint
                     ORDER BY s.entered_at DESC, s.id DESC LIMIT 1) AS sample_message
            FROM (SELECT error_fingerprint, min(tool) AS tool,
                         %s,
                         count(*) AS total,
                         count(*) FILTER (WHERE decision_state = 'OPEN') AS open,
                         min(entered_at) AS first_seen, max(entered_at) AS last_seen
                  FROM dlq_entries%s
                  GROUP BY error_fingerprint) g
            ORDER BY g.total DESC, g.last_seen DESC, g.error_fingerprint""";

    private static final String CLASS_FLAGS = Arrays.stream(FailureClass.values())
            .map(failureClass -> "bool_or(error_class = '" + failureClass.name() + "') AS has_" + failureClass.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining(", "));

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Jdbc jdbc;

    public JdbcDlqQueries(Database database) {
        this.jdbc = database.jdbc();
    }

    @Override
    public DlqPage page(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit) {
        if (limit < 1 || limit > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be between 1 and " + MAX_PAGE_SIZE + ", got " + limit);
        }
        boolean backwards = cursor != null && direction == PageDirection.PREVIOUS;
        Statement statement = pageStatement(filter, order, cursor, direction, limit);
        List<DlqRow> fetched = new ArrayList<>(jdbc.query(statement.sql(), JdbcDlqQueries::row, statement.params()));
        boolean hasMore = fetched.size() > limit;
        List<DlqRow> rows = fetched.subList(0, Math.min(limit, fetched.size()));
        if (backwards) {
            Collections.reverse(rows);
        }
        DlqCursor first = rows.isEmpty() ? null : rows.get(0).cursor();
        DlqCursor last = rows.isEmpty() ? null : rows.get(rows.size() - 1).cursor();
        if (backwards) {
            return new DlqPage(rows, last, hasMore ? first : null, hasMore);
        }
        return new DlqPage(rows, hasMore ? last : null, cursor == null ? null : first, hasMore);
    }

    @Override
    public List<DlqRow> rows(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        String[] wanted = ids.stream().map(String::valueOf).toArray(String[]::new);
        return jdbc.query(ROW_COLUMNS + " WHERE id = ANY(CAST(? AS bigint[]))", JdbcDlqQueries::row, (Object) wanted);
    }

    @Override
    public List<FingerprintGroup> groups(DlqFilter filter) {
        Statement statement = groupsStatement(filter);
        return jdbc.query(statement.sql(), JdbcDlqQueries::group, statement.params());
    }

    @Override
    public DlqCount count(DlqFilter filter) {
        long estimate = estimate(filter);
        if (estimate > EXACT_COUNT_LIMIT) {
            return new DlqCount(estimate, false);
        }
        return new DlqCount(exactCount(filter), true);
    }

    @Override
    public long exactCount(DlqFilter filter) {
        Statement statement = countStatement(filter);
        return jdbc.queryLong(statement.sql(), statement.params());
    }

    /** A statement with the values it binds. */
    record Statement(String sql, Object[] params) {
    }

    Statement pageStatement(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit) {
        boolean backwards = cursor != null && direction == PageDirection.PREVIOUS;
        // Paging backwards reads the other way from the cursor; page() turns those rows back into the asked order.
        boolean ascending = (order == DlqOrder.OLDEST_FIRST) != backwards;
        DlqWhere where = DlqWhere.of(filter);
        if (cursor != null) {
            where.and(ascending ? "(entered_at, id) > (?, ?)" : "(entered_at, id) < (?, ?)", cursor.enteredAt(), cursor.id());
        }
        String orderBy = ascending ? " ORDER BY entered_at ASC, id ASC LIMIT ?" : " ORDER BY entered_at DESC, id DESC LIMIT ?";
        return new Statement(ROW_COLUMNS + where.sql() + orderBy, where.params(limit + 1));
    }

    Statement groupsStatement(DlqFilter filter) {
        DlqWhere where = DlqWhere.of(filter);
        return new Statement(GROUPS.formatted(CLASS_FLAGS, where.sql()), where.params());
    }

    Statement countStatement(DlqFilter filter) {
        DlqWhere where = DlqWhere.of(filter);
        return new Statement("SELECT count(*) FROM dlq_entries" + where.sql(), where.params());
    }

    /** The plan PostgreSQL chooses for a statement, as EXPLAIN prints it. */
    String plan(Statement statement) {
        return String.join("\n", jdbc.query("EXPLAIN " + statement.sql(), row -> row.getString(1), statement.params()));
    }

    /** The planner's row estimate for the filter: costs a plan, never a scan. */
    long estimate(DlqFilter filter) {
        DlqWhere where = DlqWhere.of(filter);
        String plan = jdbc.queryOne("EXPLAIN (FORMAT JSON) SELECT 1 FROM dlq_entries" + where.sql(),
                row -> row.getString(1), where.params()).orElseThrow();
        try {
            JsonNode root = JSON.readTree(plan);
            return root.path(0).path("Plan").path("Plan Rows").asLong();
        } catch (JsonProcessingException e) {
            throw new StoreException("PostgreSQL answered EXPLAIN with something that is not JSON: " + e.getOriginalMessage());
        }
    }

    static DlqRow row(ResultSet row) throws SQLException {
        return new DlqRow(
                row.getLong("id"),
                row.getString("operation_id"),
                row.getString("run_id"),
                row.getString("node_id"),
                row.getString("tool"),
                FailureClass.valueOf(row.getString("error_class")),
                row.getString("error_message"),
                row.getString("error_fingerprint"),
                SideEffectState.valueOf(row.getString("side_effect")),
                DecisionState.valueOf(row.getString("decision_state")),
                Jdbc.instant(row, "entered_at"),
                Jdbc.nullableInt(row, "attempt"),
                row.getString("trace_id"),
                row.getString("correlation_id"),
                row.getInt("version"),
                row.getBoolean("own_entry"));
    }

    private static FingerprintGroup group(ResultSet row) throws SQLException {
        List<FailureClass> classes = new ArrayList<>();
        for (FailureClass failureClass : FailureClass.values()) {
            if (row.getBoolean("has_" + failureClass.name().toLowerCase(Locale.ROOT))) {
                classes.add(failureClass);
            }
        }
        return new FingerprintGroup(
                row.getString("error_fingerprint"),
                row.getString("tool"),
                classes,
                row.getString("sample_message"),
                row.getLong("total"),
                row.getLong("open"),
                Jdbc.instant(row, "first_seen"),
                Jdbc.instant(row, "last_seen"));
    }
}
