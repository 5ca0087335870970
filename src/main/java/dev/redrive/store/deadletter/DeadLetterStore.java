package dev.redrive.store.deadletter;

import dev.redrive.envelope.Traceparent;
import dev.redrive.model.FailureClass;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.StorableText;
import dev.redrive.store.StoreException;

import java.util.Map;
import java.util.Optional;

/**
 * Writes DLQ entries with their evidence. Entries are keyed by {@code dedup_key}, so dead-lettering the same failure
 * again after a crash finds the entry already written instead of adding a second one.
 */
public final class DeadLetterStore {
    /**
     * In SQL over a {@code dlq_entries} row, the rule of {@link #operationDedupKey}: true when the row is its
     * operation's own entry; not true for a message that only names an operation ({@code idempotency_conflict},
     * {@code unknown_redrive_command}, ...) or names none. Whatever is addressed by operation id takes only these rows.
     */
    public static final String OWN_ENTRY = "dedup_key = 'op:' || operation_id || ':' || attempt";

    /* Identity, versions, trace ids and payload come from the operation row; the attempt history from its attempts. */
    private static final String ENTER_OPERATION = """
            INSERT INTO dlq_entries (dedup_key, operation_id, run_id, node_id, logical_attempt, attempt, tool,
                                     tool_schema_version, idempotency_key, approval_id, trace_id, correlation_id,
                                     w3c_trace_id, runtime_version, stream, entry_id, delivery_count, consumer,
                                     error_class, error_code, error_message, error_fingerprint, side_effect,
                                     attempt_history, raw_message, payload, entered_at, delivery_history)
            SELECT ?, o.operation_id, o.run_id, o.node_id, o.logical_attempt, ?, o.tool, o.tool_schema_version,
                   o.idempotency_key, o.approval_id, o.trace_id, o.correlation_id,
                   substring(o.traceparent FROM 4 FOR 32), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                   (SELECT COALESCE(jsonb_agg(to_jsonb(a) - 'id' - 'operation_id' ORDER BY a.id), '[]'::jsonb)
                      FROM attempts a WHERE a.operation_id = o.operation_id),
                   ?, o.payload, ?, ?
              FROM operations o
             WHERE o.operation_id = ?
            ON CONFLICT (dedup_key) DO NOTHING
            RETURNING id
            """;

    private static final String ENTER_MESSAGE = """
            INSERT INTO dlq_entries (dedup_key, operation_id, run_id, node_id, tool, trace_id, correlation_id,
                                     w3c_trace_id, runtime_version, stream, entry_id, delivery_count, consumer,
                                     error_class, error_code, error_message, error_fingerprint, side_effect,
                                     raw_message, entered_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'NONE', ?, ?)
            ON CONFLICT (dedup_key) DO NOTHING
            RETURNING id
            """;

    private static final String FIND_EVENT = """
            SELECT id, operation_id, error_class, tool, error_fingerprint, entered_at
              FROM dlq_entries WHERE dedup_key = ?
            """;

    /**
     * The most characters of an error message an entry keeps: the keyset index carries the message, and an index row
     * holds some 2,700 bytes whatever the characters are (a message may quote a field a megabyte long).
     */
    public static final int MAX_ERROR_MESSAGE = 800;
    /**
     * The most characters of a raw field (operation id, run, node, tool, trace and correlation id) an entry of a message
     * copies into the columns it is searched by; a longer one is indexable nowhere, and is left to the raw message.
     */
    static final int MAX_SEARCHABLE_FIELD = 512;

    private final Jdbc jdbc;

    public DeadLetterStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The dedup key of the entry the worker enters for an operation's dead-lettered attempt. An entry of a message it
     * could not take as a dispatch is keyed by its stream entry instead, even when its raw fields name an operation: so
     * this key is what tells an operation's own entry from one that only names it (see {@link #OWN_ENTRY}).
     */
    public static String operationDedupKey(String operationId, int attempt) {
        return "op:" + operationId + ":" + attempt;
    }

    /**
     * Enters the dead-lettered attempt of an operation, inside the caller's transaction (the one that sets the
     * operation DEAD_LETTERED and inserts the attempt row).
     */
    public DeadLetterEvent enterForOperation(OperationDeadLetter letter) {
        String dedupKey = letter.dedupKey();
        jdbc.query(ENTER_OPERATION, row -> row.getLong(1), dedupKey, letter.attempt(), letter.runtimeVersion(),
                letter.stream(), letter.entryId(), letter.deliveryCount(), letter.consumer(), letter.errorClass(),
                letter.errorCode(), StorableText.of(letter.errorMessage(), MAX_ERROR_MESSAGE), letter.fingerprint(),
                letter.sideEffect(),
                new Json(RawMessage.json(RawMessage.kept(letter.rawMessage()))), letter.enteredAt(),
                new Json(letter.deliveryHistory()), letter.operationId());
        return eventFor(dedupKey).orElseThrow(() -> new StoreException("no DLQ entry for " + dedupKey));
    }

    /**
     * Enters an unreadable message; the raw fields are kept as they were received, made storable and cut to
     * {@link RawMessage#LIMIT_BYTES} (see {@link RawMessage}).
     */
    public DeadLetterEvent enterForMessage(MessageDeadLetter letter) {
        Map<String, String> raw = RawMessage.kept(letter.rawMessage());
        String message = StorableText.of(letter.errorMessage(), MAX_ERROR_MESSAGE);
        String tool = searchable(raw.get("tool"));
        String fingerprint = ErrorFingerprint.of(tool, letter.errorClass(), letter.errorCode(), message);
        jdbc.query(ENTER_MESSAGE, row -> row.getLong(1), letter.dedupKey(), searchable(raw.get("operation_id")),
                searchable(raw.get("run_id")), searchable(raw.get("node_id")), tool, searchable(raw.get("trace_id")),
                searchable(raw.get("correlation_id")),
                Traceparent.parse(raw.get("traceparent")).map(Traceparent::traceId).orElse(null),
                letter.runtimeVersion(), letter.stream(), letter.entryId(), (int) letter.deliveryCount(),
                letter.consumer(), letter.errorClass(), letter.errorCode(), message, fingerprint,
                new Json(RawMessage.json(raw)), letter.enteredAt());
        return eventFor(letter.dedupKey()).orElseThrow(() -> new StoreException("no DLQ entry for " + letter.dedupKey()));
    }

    private static String searchable(String rawField) {
        return rawField == null || rawField.length() > MAX_SEARCHABLE_FIELD ? null : rawField;
    }

    /** The event of an entry already written, to announce it again when a crash may have kept it from the stream. */
    public Optional<DeadLetterEvent> eventFor(String dedupKey) {
        return jdbc.queryOne(FIND_EVENT, row -> new DeadLetterEvent(row.getLong("id"), row.getString("operation_id"),
                FailureClass.valueOf(row.getString("error_class")), row.getString("tool"),
                row.getString("error_fingerprint"), Jdbc.instant(row, "entered_at")), dedupKey);
    }
}
