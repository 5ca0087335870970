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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@link DlqQueries} on PostgreSQL. Pages are keyset-paged on (entered_at, id), which every DLQ index ends with and
 * which PostgreSQL scans either way, so a page deep in a million entries costs the same as the first one in both
 * orders.
 */
public final class JdbcDlqQueries implements DlqQueries {
    /** Above this many estimated rows a count returns the planner's estimate instead of counting. */
    public static final long EXACT_COUNT_LIMIT = 100_000;
    /**
     * A text search counts its matches up to this many and then says "1,000+" with an estimate from a sample: counting
     * further reads a row of the table for every match (10,000 of them took 200-400 ms at 1M entries).
     */
    public static final long TEXT_COUNT_CAP = 1_000;
    /** About how many entries the sample behind a text search's estimate reads (whole pages, chosen at random). */
    static final long SAMPLED_ROWS = 3_000;
    /**
     * A sample that finds this many times the cap is the answer, an estimate: so many matches are not counted at all
     * (even counting to the cap builds the full-text index's bitmap of every match).
     */
    static final long ESTIMATE_ONLY_ABOVE = 10 * TEXT_COUNT_CAP;
    public static final int MAX_PAGE_SIZE = 1000;
    /** How many entries a text search walks first to tell a common phrase from a rare one. */
    static final int TEXT_SAMPLE_WINDOW = 300;
    /** Fewer matches than this in the sample make a phrase rare: the full-text index is asked for its matches. */
    static final int TEXT_SAMPLE_HITS = 3;
    /** A rare phrase with fewer matches than this past the cursor has them all read from the full-text index. */
    static final int TEXT_FEW_MATCHES = 500;
    /** How many entries a text search with more matches reads in keyset order to fill its page. */
    static final int TEXT_WALK_WINDOW = 5_000;

    private static final String ROW_COLUMNS = """
            SELECT id, operation_id, run_id, node_id, tool, error_class, error_message, error_fingerprint,
                   side_effect, decision_state, entered_at, attempt, trace_id, correlation_id, version,
                   (%s) IS TRUE AS own_entry
            FROM dlq_entries""".formatted(DeadLetterStore.OWN_ENTRY);

    // The sample is the newest entry of the group, one probe of dlq_fingerprint_idx per group.
    private static final String GROUPS = """
            SELECT g.*,
                   (SELECT s.error_message FROM dlq_entries s
                     WHERE s.error_fingerprint = g.error_fingerprint
                     ORDER BY s.entered_at DESC, s.id DESC LIMIT 1) AS sample_message
            FROM (%s) g
            ORDER BY g.total DESC, g.last_seen DESC, g.error_fingerprint""";

    // One bool_or per class instead of array_agg(DISTINCT ...): no sort per group, so dlq_group_idx answers it alone.
    private static final String ENTRY_GROUPS = """
            SELECT error_fingerprint, min(tool) AS tool, %s,
                   count(*) AS total, count(*) FILTER (WHERE decision_state = 'OPEN') AS open,
                   min(entered_at) AS first_seen, max(entered_at) AS last_seen
            FROM dlq_entries%s
            GROUP BY error_fingerprint""";

    private static final String SUMMARY_GROUPS = """
            SELECT error_fingerprint, min(NULLIF(tool, '')) AS tool, %s,
                   sum(entries) AS total, coalesce(sum(entries) FILTER (WHERE decision_state = 'OPEN'), 0) AS open,
                   min(first_seen) AS first_seen, max(last_seen) AS last_seen
            FROM dlq_summary%s
            GROUP BY error_fingerprint""";

    private static final String CLASS_FLAGS = Arrays.stream(FailureClass.values())
            .map(failureClass -> "bool_or(error_class = '" + failureClass.name() + "') AS has_" + failureClass.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining(", "));

    private static final String ANY_ID = "id = ANY(CAST(? AS bigint[]))";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Jdbc jdbc;
    private final int textSampleWindow;
    private final int textFewMatches;
    private final int textWalkWindow;

    public JdbcDlqQueries(Database database) {
        this(database, TEXT_SAMPLE_WINDOW, TEXT_FEW_MATCHES, TEXT_WALK_WINDOW);
    }

    /** With other text-search thresholds: tests make them small so that one search takes every way. */
    JdbcDlqQueries(Database database, int textSampleWindow, int textFewMatches, int textWalkWindow) {
        this.jdbc = database.jdbc();
        this.textSampleWindow = textSampleWindow;
        this.textFewMatches = textFewMatches;
        this.textWalkWindow = textWalkWindow;
    }

    @Override
    public DlqPage page(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit) {
        if (limit < 1 || limit > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be between 1 and " + MAX_PAGE_SIZE + ", got " + limit);
        }
        boolean backwards = cursor != null && direction == PageDirection.PREVIOUS;
        List<DlqRow> fetched = new ArrayList<>(fetch(filter, order, cursor, direction, limit));
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

    /** Up to limit + 1 rows in reading order: the page and, when there is one, the row that says more follow. */
    private List<DlqRow> fetch(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit) {
        if (filter.text() == null) {
            return query(pageStatement(filter, order, cursor, direction, limit));
        }
        // A few hundred entries first: a phrase common enough to show up among them fills its page by walking on.
        List<DlqRow> sample = query(textWalkStatement(filter, order, cursor, direction, limit, textSampleWindow));
        if (sample.size() > limit) {
            return sample;
        }
        if (sample.size() < TEXT_SAMPLE_HITS) {
            // Rare here, and likely rare overall: the full-text index finds every match past the cursor at once, and
            // sorting a few hundred is cheap.
            Statement probe = textMatchesStatement(filter, order, cursor, direction, limit, textFewMatches);
            List<Matched> few = jdbc.query(probe.sql(), matched -> new Matched(row(matched), matched.getLong("matches")),
                    probe.params());
            if (few.isEmpty() || few.get(0).matches() < textFewMatches) {
                return few.stream().map(Matched::row).toList();
            }
        }
        // Common enough: the first limit + 1 matches within the walk's window are the first ones overall. A phrase
        // too sparse for the window has every match past the cursor read and sorted after all.
        List<DlqRow> walked = query(textWalkStatement(filter, order, cursor, direction, limit, textWalkWindow));
        if (walked.size() > limit) {
            return walked;
        }
        return query(textMatchesStatement(filter, order, cursor, direction, limit, Long.MAX_VALUE));
    }

    /** A row of a text search through the full-text index, with how many matches that search read. */
    private record Matched(DlqRow row, long matches) {
    }

    private List<DlqRow> query(Statement statement) {
        return jdbc.query(statement.sql(), JdbcDlqQueries::row, statement.params());
    }

    @Override
    public List<DlqRow> rows(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.query(ROW_COLUMNS + " WHERE " + ANY_ID, JdbcDlqQueries::row, (Object) idArray(ids));
    }

    @Override
    public Set<Long> matching(DlqFilter filter, Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        DlqWhere where = DlqWhere.of(filter).and(ANY_ID, (Object) idArray(ids));
        return Set.copyOf(jdbc.query("SELECT id FROM dlq_entries" + where.sql(), row -> row.getLong(1), where.params()));
    }

    @Override
    public Set<String> startedBy(Collection<String> fingerprints, Collection<Long> ids) {
        if (fingerprints.isEmpty()) {
            return Set.of();
        }
        // One probe of the group index per fingerprint: it stops at the first entry that is not one of these.
        return Set.copyOf(jdbc.query("""
                SELECT f FROM unnest(?::text[]) AS f
                WHERE NOT EXISTS (SELECT 1 FROM dlq_entries e
                                  WHERE e.error_fingerprint = f AND NOT (e.id = ANY (?::bigint[])))""",
                row -> row.getString(1), (Object) fingerprints.toArray(String[]::new), (Object) idArray(ids)));
    }

    @Override
    public List<FingerprintGroup> groups(DlqFilter filter) {
        return groups(groupsStatement(filter));
    }

    @Override
    public DlqCount count(DlqFilter filter) {
        if (DlqSummaryWhere.of(filter).isPresent()) {
            return DlqCount.exact(exactCount(filter));
        }
        if (filter.text() != null) {
            // The planner misjudges how many entries a phrase matches by orders of magnitude either way: a sample of
            // the table tells a common phrase, which is estimated; any other is counted, up to the cap.
            long sampled = sampledCount(filter);
            if (sampled >= ESTIMATE_ONLY_ABOVE) {
                return DlqCount.estimate(sampled);
            }
            Statement capped = cappedCountStatement(filter, TEXT_COUNT_CAP + 1);
            long counted = jdbc.queryLong(capped.sql(), capped.params());
            return counted > TEXT_COUNT_CAP ? DlqCount.atLeast(TEXT_COUNT_CAP, sampled) : DlqCount.exact(counted);
        }
        long estimate = estimate(filter);
        if (estimate > EXACT_COUNT_LIMIT) {
            return DlqCount.estimate(estimate);
        }
        return DlqCount.exact(exactCount(filter));
    }

    @Override
    public long exactCount(DlqFilter filter) {
        Statement statement = countStatement(filter);
        return jdbc.queryLong(statement.sql(), statement.params());
    }

    @Override
    public boolean anyOwnEntry(DlqFilter filter) {
        DlqWhere where = DlqWhere.of(filter).and("(" + DeadLetterStore.OWN_ENTRY + ")");
        return jdbc.queryOne("SELECT EXISTS (SELECT 1 FROM dlq_entries" + where.sql() + ")",
                row -> row.getBoolean(1), where.params()).orElse(false);
    }

    @Override
    public Set<String> tools(DlqFilter filter) {
        DlqWhere where = DlqWhere.of(filter).and("tool IS NOT NULL");
        return new HashSet<>(jdbc.query("SELECT DISTINCT tool FROM dlq_entries" + where.sql(), row -> row.getString(1),
                where.params()));
    }

    private static String[] idArray(Collection<Long> ids) {
        return ids.stream().map(String::valueOf).toArray(String[]::new);
    }

    /** A statement with the values it binds. */
    record Statement(String sql, Object[] params) {
    }

    /** One page as the planner sees fit: for every filter but a text search, which it misjudges. */
    Statement pageStatement(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit) {
        DlqKeyset keyset = DlqKeyset.of(order, cursor, direction);
        DlqWhere where = keyset.bound(DlqWhere.of(filter));
        return new Statement(ROW_COLUMNS + where.sql() + keyset.orderByLimit(), where.params(limit + 1));
    }

    /**
     * A text search that walks the keyset order: it reads at most {@code window} entries past the cursor that pass the
     * other filters, on their index, and keeps those whose error matches; then it reads the rows of those alone.
     * Without other filters the walk is an index-only scan of dlq_entered_idx, which carries the error text. The inner
     * LIMIT keeps the planner from answering it from the full-text index, which reads every match and sorts them all.
     */
    Statement textWalkStatement(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit,
                                int window) {
        DlqKeyset keyset = DlqKeyset.of(order, cursor, direction);
        DlqWhere walked = keyset.bound(DlqWhere.of(filter.toBuilder().text(null).build()));
        String sql = ROW_COLUMNS + " WHERE id IN (SELECT id FROM (SELECT id, entered_at, error_message FROM dlq_entries"
                + walked.sql() + keyset.orderByLimit() + ") walked WHERE " + DlqWhere.TEXT_MATCH + keyset.orderByLimit()
                + ")" + keyset.orderBy();
        return new Statement(sql, walked.params(window, filter.text(), limit + 1));
    }

    /**
     * A text search through the full-text index: up to {@code cap} matches past the cursor, sorted, with how many it
     * read in the column "matches". Cheap when the matches are few, which is when walking the keyset order would read
     * many entries for each match.
     */
    Statement textMatchesStatement(DlqFilter filter, DlqOrder order, DlqCursor cursor, PageDirection direction, int limit,
                                   long cap) {
        DlqKeyset keyset = DlqKeyset.of(order, cursor, direction);
        DlqWhere where = keyset.bound(DlqWhere.of(filter));
        return new Statement("WITH matches AS MATERIALIZED (" + ROW_COLUMNS + where.sql() + " LIMIT ?)"
                + " SELECT *, count(*) OVER () AS matches FROM matches" + keyset.orderByLimit(), where.params(cap, limit + 1));
    }

    /** From the summary when the filter allows it, else by aggregating the matching entries. */
    Statement groupsStatement(DlqFilter filter) {
        return DlqSummaryWhere.of(filter)
                .map(where -> new Statement(GROUPS.formatted(SUMMARY_GROUPS.formatted(CLASS_FLAGS, where.sql())), where.params()))
                .orElseGet(() -> entryGroupsStatement(filter));
    }

    /** The groups aggregated from the matching entries themselves. */
    Statement entryGroupsStatement(DlqFilter filter) {
        DlqWhere where = DlqWhere.of(filter);
        return new Statement(GROUPS.formatted(ENTRY_GROUPS.formatted(CLASS_FLAGS, where.sql())), where.params());
    }

    List<FingerprintGroup> groups(Statement statement) {
        return jdbc.query(statement.sql(), JdbcDlqQueries::group, statement.params());
    }

    /** Counts the matching entries: from the summary when the filter allows it, else entry by entry. */
    Statement countStatement(DlqFilter filter) {
        return DlqSummaryWhere.of(filter)
                .map(where -> new Statement("SELECT coalesce(sum(entries), 0) FROM dlq_summary" + where.sql(), where.params()))
                .orElseGet(() -> {
                    DlqWhere where = DlqWhere.of(filter);
                    return new Statement("SELECT count(*) FROM dlq_entries" + where.sql(), where.params());
                });
    }

    /** Counts the matching entries up to {@code cap}: the scan stops at the cap'th match. */
    Statement cappedCountStatement(DlqFilter filter, long cap) {
        DlqWhere where = DlqWhere.of(filter);
        return new Statement("SELECT count(*) FROM (SELECT 1 FROM dlq_entries" + where.sql() + " LIMIT ?) matches",
                where.params(cap));
    }

    /**
     * About how many entries match, from a sample of about {@link #SAMPLED_ROWS} entries: whole pages chosen at random
     * (the same pages every time, so that a count does not flicker between refreshes), their matches scaled up by the
     * share of the table they are. 0 when the table is no larger than the sample (whose count would be exact), has not
     * been analyzed yet, or is a viewer's masked view.
     */
    long sampledCount(DlqFilter filter) {
        // The rows the table holds now, as the planner reckons them: rows per page at the last ANALYZE times the pages
        // it has now (a table that grew since is not sampled whole). A viewer reads a view, which is not sampled.
        double rows = jdbc.queryOne("""
                SELECT CASE WHEN relpages > 0 AND reltuples > 0
                            THEN reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::int)
                            ELSE 0 END
                  FROM pg_class WHERE oid = 'dlq_entries'::regclass AND relkind = 'r'""",
                row -> row.getDouble(1)).orElse(0.0);
        if (rows <= SAMPLED_ROWS) {
            return 0;
        }
        double percent = 100.0 * SAMPLED_ROWS / rows;
        DlqWhere where = DlqWhere.of(filter);
        Object[] params = new Object[where.params().length + 1];
        params[0] = percent;
        System.arraycopy(where.params(), 0, params, 1, where.params().length);
        long matched = jdbc.queryLong("SELECT count(*) FROM dlq_entries TABLESAMPLE SYSTEM (?) REPEATABLE (0)"
                + where.sql(), params);
        return Math.round(matched * 100.0 / percent);
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
