package dev.redrive.triage.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLog;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The reads and writes of {@code decision_requests}. Each change of state is one statement guarded on PENDING whose
 * row count is checked (0 = someone decided it first); the database's guard stamps the logins and refuses an approval
 * by the login that asked.
 */
final class RequestStore {
    /**
     * Whether an item of the request still has an open DLQ entry: the entry it names, or, named by its operation
     * alone, an open entry of the operation's own (the one a decision by operation id takes).
     */
    private static final String AN_ITEM_IS_OPEN = """
            EXISTS (SELECT FROM jsonb_array_elements(targets) t
                     WHERE EXISTS (SELECT FROM dlq_entries e
                                    WHERE e.id = (t->>'dlq_entry_id')::bigint AND e.decision_state = 'OPEN')
                        OR (t->>'dlq_entry_id' IS NULL
                            AND EXISTS (SELECT FROM dlq_entries e
                                         WHERE e.operation_id = t->>'operation_id' AND e.decision_state = 'OPEN'
                                           AND e.%s)))""".formatted(DeadLetterStore.OWN_ENTRY);

    /**
     * A PENDING request past its expiry reads EXPIRED, and one without an open item OBSOLETE (another path decided its
     * items meanwhile): the first parameter is now.
     */
    private static final String COLUMNS = """
            SELECT id, kind, targets, selection, options, reason, covered_by, requested_by, requested_login,
                   requested_at, expires_at,
                   CASE WHEN state = 'PENDING' AND expires_at <= ? THEN 'EXPIRED'
                        WHEN state = 'PENDING' AND NOT %s THEN 'OBSOLETE'
                        ELSE state END AS state,
                   decided_by, decided_login, decided_at, reject_reason, result
              FROM decision_requests""".formatted(AN_ITEM_IS_OPEN);

    /** The requests that still wait: PENDING, not expired, with an open item. */
    private static final String WAITING = "state = 'PENDING' AND expires_at > ? AND " + AN_ITEM_IS_OPEN;

    private static final String INSERT = """
            INSERT INTO decision_requests (kind, targets, selection, options, reason, covered_by, requested_by,
                                           requested_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING id""";

    private static final String PENDING = COLUMNS + " WHERE " + WAITING + " ORDER BY id";
    private static final String NEWEST = COLUMNS + " ORDER BY id DESC LIMIT ?";
    private static final String BY_ID = COLUMNS + " WHERE id = ?";
    /**
     * The items of a request as a set, in the order {@link #itemsKey} gives them: what the operator asked about,
     * whatever the order they were named in and the version of the row each one saw.
     */
    private static final String ITEMS = """
            (SELECT coalesce(jsonb_agg(jsonb_build_array(t->>'operation_id', t->>'dlq_entry_id')
                                       ORDER BY t->>'operation_id' COLLATE "C", t->>'dlq_entry_id' COLLATE "C"),
                             '[]'::jsonb)
               FROM jsonb_array_elements(targets) t)""";
    /** The same decision (kind, items and options) still waiting; the parameters: now, kind, items, options, now. */
    private static final String SAME_WAITING = COLUMNS + " WHERE kind = ? AND " + ITEMS + " = ?::jsonb"
            + " AND options = ?::jsonb AND " + WAITING + " ORDER BY id LIMIT 1";
    /** Two operators asking for the same decision at once take turns, so that the second finds the first's request. */
    private static final String SUBMISSIONS_TAKE_TURNS = """
            SELECT pg_advisory_xact_lock(hashtextextended('redrive.decision_requests.' || current_schema(), 0))""";
    private static final String COUNT_PENDING = "SELECT count(*) FROM decision_requests WHERE " + WAITING;
    private static final String TOOLS = """
            SELECT tool FROM operations WHERE operation_id = ANY (?)
            UNION
            SELECT tool FROM dlq_entries WHERE id = ANY (?::text[]::bigint[])""";
    private static final String LOCK = "SELECT id FROM decision_requests WHERE id = ? FOR UPDATE";

    private static final String APPROVE = """
            UPDATE decision_requests SET state = 'APPROVED', decided_by = ?, decided_at = ?
             WHERE id = ? AND state = 'PENDING'""";
    private static final String REJECT = """
            UPDATE decision_requests SET state = 'REJECTED', decided_by = ?, decided_at = ?, reject_reason = ?
             WHERE id = ? AND state = 'PENDING'""";
    private static final String EXPIRE = """
            UPDATE decision_requests SET state = 'EXPIRED', decided_at = ? WHERE id = ? AND state = 'PENDING'""";
    private static final String OBSOLETE = """
            UPDATE decision_requests SET state = 'OBSOLETE', decided_at = ? WHERE id = ? AND state = 'PENDING'""";
    private static final String RESULT = """
            UPDATE decision_requests SET result = ? WHERE id = ? AND state = 'APPROVED' AND result IS NULL""";

    private final Jdbc jdbc;
    private final AuditLog audit;

    RequestStore(Database database) {
        this.jdbc = database.jdbc();
        this.audit = new AuditLog(jdbc);
    }

    Jdbc jdbc() {
        return jdbc;
    }

    long insert(RequestKind kind, List<DecisionTarget> targets, String selection, RequestOptions options, String reason,
                String coveredBy, String requestedBy, Instant at, Instant expiresAt) {
        return jdbc.queryOne(INSERT, row -> row.getLong(1), kind, new Json(targetsJson(targets).toString()), selection,
                new Json(optionsJson(options)), reason, coveredBy, requestedBy, at, expiresAt).orElseThrow();
    }

    /**
     * Inside the transaction that would record a request: waits for any other submission's transaction to end, then
     * finds the same decision already waiting, if there is one.
     */
    Optional<DecisionRequest> sameWaiting(RequestKind kind, List<DecisionTarget> targets, RequestOptions options,
                                          Instant now) {
        jdbc.queryOne(SUBMISSIONS_TAKE_TURNS, row -> true);
        return jdbc.queryOne(SAME_WAITING, RequestStore::map, now, kind, itemsKey(targets), optionsJson(options), now);
    }

    /**
     * [[operation id, entry id as text], ...], sorted as {@link #ITEMS} sorts them (C collation, nulls last), which is
     * the order of {@link String#compareTo} for ids of ASCII characters.
     */
    private static String itemsKey(List<DecisionTarget> targets) {
        Comparator<String> text = Comparator.nullsLast(Comparator.naturalOrder());
        ArrayNode items = TriageJson.mapper().createArrayNode();
        targets.stream().map(target -> new String[]{target.operationId(),
                        target.dlqEntryId() == null ? null : target.dlqEntryId().toString()})
                .sorted(Comparator.<String[], String>comparing(item -> item[0], text)
                        .thenComparing(item -> item[1], text))
                .forEach(item -> items.addArray().add(item[0]).add(item[1]));
        return items.toString();
    }

    private static String optionsJson(RequestOptions options) {
        return TriageJson.compact(TriageJson.mapper().valueToTree(options));
    }

    List<DecisionRequest> pending(Instant now) {
        return jdbc.query(PENDING, RequestStore::map, now, now);
    }

    List<DecisionRequest> newest(Instant now, int limit) {
        return jdbc.query(NEWEST, RequestStore::map, now, limit);
    }

    Optional<DecisionRequest> find(long id, Instant now) {
        return jdbc.queryOne(BY_ID, RequestStore::map, now, id);
    }

    long countPending(Instant now) {
        return jdbc.queryLong(COUNT_PENDING, now);
    }

    /** The tools of the targets' operations (or, for an entry alone, of its entry). */
    Set<String> tools(List<DecisionTarget> targets) {
        String[] operations = targets.stream().map(DecisionTarget::operationId).filter(Objects::nonNull)
                .toArray(String[]::new);
        String[] entries = targets.stream().map(DecisionTarget::dlqEntryId).filter(Objects::nonNull)
                .map(String::valueOf).toArray(String[]::new);
        return new HashSet<>(jdbc.query(TOOLS, row -> row.getString(1), operations, entries));
    }

    /** Holds the request's row until the transaction ends: of two operators deciding it at once, one waits. */
    boolean lock(long id) {
        return !jdbc.query(LOCK, row -> row.getLong(1), id).isEmpty();
    }

    boolean approve(long id, String approver, Instant at) {
        return jdbc.update(APPROVE, approver, at, id) == 1;
    }

    boolean reject(long id, String operator, String reason, Instant at) {
        return jdbc.update(REJECT, operator, at, reason, id) == 1;
    }

    boolean expire(long id, Instant at) {
        return jdbc.update(EXPIRE, at, id) == 1;
    }

    boolean obsolete(long id, Instant at) {
        return jdbc.update(OBSOLETE, at, id) == 1;
    }

    void recordResult(long id, JsonNode result) {
        if (jdbc.update(RESULT, new Json(TriageJson.compact(result)), id) != 1) {
            throw new IllegalStateException("request " + id + " is not an approved request without a result");
        }
    }

    void audit(AuditLine line) {
        audit.append(line);
    }

    private static ArrayNode targetsJson(List<DecisionTarget> targets) {
        ArrayNode array = TriageJson.mapper().createArrayNode();
        for (DecisionTarget target : targets) {
            ObjectNode item = array.addObject();
            item.put("operation_id", target.operationId());
            if (target.dlqEntryId() == null) {
                item.putNull("dlq_entry_id");
            } else {
                item.put("dlq_entry_id", target.dlqEntryId());
            }
            if (target.seenVersion() == null) {
                item.putNull("seen_version");
            } else {
                item.put("seen_version", target.seenVersion());
            }
        }
        return array;
    }

    private static List<DecisionTarget> targets(JsonNode array) {
        List<DecisionTarget> targets = new ArrayList<>(array.size());
        for (JsonNode item : array) {
            targets.add(new DecisionTarget(text(item.get("operation_id")),
                    item.path("dlq_entry_id").isNumber() ? item.get("dlq_entry_id").asLong() : null,
                    item.path("seen_version").isNumber() ? item.get("seen_version").asInt() : null, null));
        }
        return targets;
    }

    private static RequestOptions options(JsonNode node) {
        JsonNode result = node.get("result");
        return new RequestOptions(text(node.get("schema_version")), node.path("items_per_second").asDouble(0),
                result == null || result.isNull() ? null : result, text(node.get("payload")));
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    private static DecisionRequest map(ResultSet row) throws SQLException {
        return new DecisionRequest(row.getLong("id"), RequestKind.valueOf(row.getString("kind")),
                targets(TriageJson.parse(row.getString("targets"))), row.getString("selection"),
                options(TriageJson.parse(row.getString("options"))), row.getString("reason"),
                row.getString("covered_by"), row.getString("requested_by"), row.getString("requested_login"),
                Jdbc.instant(row, "requested_at"), Jdbc.instant(row, "expires_at"),
                RequestState.valueOf(row.getString("state")), row.getString("decided_by"),
                row.getString("decided_login"), Jdbc.instant(row, "decided_at"), row.getString("reject_reason"),
                TriageJson.parse(row.getString("result")));
    }
}
