package dev.redrive.triage.decision.durable;

import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLog;
import dev.redrive.triage.decision.BatchItem;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.WriteTurn;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.precondition.PreconditionId;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The rows of {@code redrive_batches}. A process holds a batch while its lease runs ({@link #claim}); every later write
 * of the holder is guarded by its owner name and the RUNNING state, so a holder that was stopped or taken over cannot
 * write progress any more. Lease times are the database's own clock, the one every process shares. A batch stopped or
 * resumed gets its audit line ({@link AuditAction#BATCH_STOPPED}, {@link AuditAction#BATCH_RESUMED}) in the transaction
 * that moves it; the line's actor is the name the batch decides under, and the database stamps the login that did it.
 */
final class BatchStore {
    private static final String COLUMNS = """
            id, kind, selection::text AS selection, operator, db_login, reason, schema_version, items_per_second,
            chunk_size, state, position, total, done, succeeded, blocked, failed, left_out, owner, lease_until, error,
            created_at, updated_at, finished_at, unpublished, last_chunk_at
            """;

    private static final String INSERT = """
            INSERT INTO redrive_batches (kind, selection, operator, reason, schema_version, items_per_second, chunk_size,
                                         total)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING\s""" + COLUMNS;

    private static final String CLAIM = """
            UPDATE redrive_batches
               SET state = 'RUNNING', owner = ?, lease_until = now() + ? * interval '1 millisecond', error = NULL,
                   updated_at = now()
             WHERE id = ?
               AND (state IN ('STOPPED', 'FAILED')
                    OR (state = 'RUNNING' AND (owner IS NULL OR lease_until < now())))
            RETURNING\s""" + COLUMNS;

    private static final String RENEW = """
            UPDATE redrive_batches SET lease_until = now() + ? * interval '1 millisecond'
             WHERE id = ? AND owner = ? AND state = 'RUNNING'
            """;

    private static final String ADVANCE = """
            UPDATE redrive_batches
               SET position = ?, done = done + ?, succeeded = succeeded + ?, blocked = blocked + ?,
                   left_out = left_out + ?, unpublished = unpublished || ?::text[]::uuid[], last_chunk_at = now(),
                   lease_until = now() + ? * interval '1 millisecond', updated_at = now()
             WHERE id = ? AND owner = ? AND state = 'RUNNING' AND position IS NOT DISTINCT FROM ?
            """;
    private static final String HELD_BY = """
            SELECT count(*) FROM redrive_batches WHERE id = ? AND owner = ? AND state = 'RUNNING'
            """;

    private static final String ALL_PUBLISHED = """
            UPDATE redrive_batches SET unpublished = '{}' WHERE id = ? AND owner = ?
            """;
    private static final String PUBLISHED = """
            UPDATE redrive_batches
               SET unpublished = ARRAY(SELECT u FROM unnest(unpublished) u WHERE u <> ALL (?::text[]::uuid[]))
             WHERE id = ? AND owner = ?
            """;

    private static final String RELEASE = """
            UPDATE redrive_batches
               SET state = ?, owner = NULL, lease_until = NULL, failed = failed + ?, error = ?, updated_at = now(),
                   finished_at = CASE WHEN ? = 'DONE' THEN now() END
             WHERE id = ? AND owner = ?
            """;

    private static final String STOP = """
            UPDATE redrive_batches SET state = 'STOPPED', updated_at = now() WHERE id = ? AND state = 'RUNNING'
            RETURNING\s""" + COLUMNS;

    private static final String RECORD_ITEMS = """
            INSERT INTO redrive_batch_items (batch_id, operation_id, dlq_entry_id, decision, command_id, blocked_by, message)
            SELECT ?, v.operation_id, v.dlq_entry_id, v.decision, v.command_id, string_to_array(v.blocked_by, ','),
                   v.message
              FROM unnest(?::text[], ?::text[]::bigint[], ?::text[], ?::text[]::uuid[], ?::text[], ?::text[])
                   AS v(operation_id, dlq_entry_id, decision, command_id, blocked_by, message)
            """;

    /** Where the batch stood before a claim or a release moves it, its row held until the transaction ends. */
    private static final String LOCK = "SELECT state, owner FROM redrive_batches WHERE id = ? FOR UPDATE";

    private final Jdbc jdbc;
    private final AuditLog audit;

    BatchStore(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.audit = new AuditLog(jdbc);
    }

    /** A batch's state and holder as they were before a move. */
    private record Before(BatchState state, String owner) {
        /** Whether a claim now resumes the batch: it ran before, unlike a batch just started that nobody claimed yet. */
        boolean ranBefore() {
            return state != BatchState.RUNNING || owner != null;
        }
    }

    /** A batch row with its unpublished commands: what a process resuming it must publish first. */
    record Row(DurableBatch batch, List<UUID> unpublished, Instant lastChunkAt) {
    }

    Row insert(DecisionKind kind, BatchSelection selection, BatchOptions options, int chunkSize, long total) {
        return jdbc.queryOne(INSERT, BatchStore::row, kind, Json.of(selection.toJson()), options.operator(),
                options.reason(), options.schemaVersion(), options.itemsPerSecond(), chunkSize, total).orElseThrow();
    }

    Optional<Row> find(long id) {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM redrive_batches WHERE id = ?", BatchStore::row, id);
    }

    /** The newest batches first. */
    List<DurableBatch> newest(int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM redrive_batches ORDER BY created_at DESC, id DESC LIMIT ?",
                row -> row(row).batch(), limit);
    }

    /**
     * Takes the batch for {@code owner} when nobody holds it; empty when another process does or it is DONE. Taking a
     * batch that ran before (stopped, failed, or left by a process that died) resumes it, which is audited.
     */
    Optional<Row> claim(long id, String owner, Duration lease, Instant at) {
        return jdbc.inTransaction(() -> {
            Optional<Before> before = before(id);
            Optional<Row> claimed = jdbc.queryOne(CLAIM, BatchStore::row, owner, lease.toMillis(), id);
            if (claimed.isPresent() && before.orElseThrow().ranBefore()) {
                Map<String, Object> details = details(claimed.get().batch(), owner);
                details.put("state_before", before.get().state().name());
                audit(at, AuditAction.BATCH_RESUMED, claimed.get().batch(), details);
            }
            return claimed;
        });
    }

    /** Extends the owner's lease; false when it no longer holds the batch (stopped, or taken over). */
    boolean renew(long id, String owner, Duration lease) {
        return jdbc.update(RENEW, lease.toMillis(), id, owner) == 1;
    }

    /** Whether the owner still holds the batch: false once it was stopped (from anywhere) or taken over. */
    boolean holds(long id, String owner) {
        return jdbc.queryLong(HELD_BY, id, owner) == 1;
    }

    /**
     * Records a chunk's progress in the chunk's own transaction, moving the position from {@code from} (where the chunk
     * starts) to {@code position}. Throws when the owner no longer holds the batch, or when the batch is not at
     * {@code from}; either rolls the chunk back.
     */
    void advance(long id, String owner, Duration lease, String from, String position, int done, int succeeded,
                 int leftOut, List<UUID> unpublished) {
        int updated = jdbc.update(ADVANCE, position, done, succeeded, done - succeeded, leftOut,
                unpublished.stream().map(UUID::toString).toArray(String[]::new), lease.toMillis(), id, owner, from);
        if (updated == 1) {
            return;
        }
        if (holds(id, owner)) {
            // Still ours, but not where this chunk starts: the chunk before it did not commit (the database refused
            // it), so this one is not taken either, and the position never passes an item left undecided.
            throw new WriteTurn.StoppedBeforeWriting();
        }
        throw new BatchHeldException("batch " + id + " was stopped or taken over by another process meanwhile: "
                + "its last chunk was not decided here");
    }

    /** Records what a chunk decided of each item, in the chunk's transaction. */
    void recordItems(long id, List<BatchItem> items) {
        if (items.isEmpty()) {
            return;
        }
        jdbc.update(RECORD_ITEMS, id,
                items.stream().map(BatchItem::operationId).toArray(String[]::new),
                items.stream().map(item -> item.dlqEntryId() == null ? null : item.dlqEntryId().toString()).toArray(String[]::new),
                items.stream().map(item -> item.decision().name()).toArray(String[]::new),
                items.stream().map(item -> item.commandId() == null ? null : item.commandId().toString()).toArray(String[]::new),
                items.stream().map(item -> item.blockedBy().stream().map(PreconditionId::key)
                        .collect(Collectors.joining(","))).toArray(String[]::new),
                items.stream().map(BatchItem::message).toArray(String[]::new));
    }

    /** Every dispatch the batch's chunks left is published (or known to the sweep): nothing left to publish on resume. */
    void published(long id, String owner) {
        jdbc.update(ALL_PUBLISHED, id, owner);
    }

    /**
     * A chunk's dispatches are published (or known to the sweep). The chunk after it may have recorded its own
     * meanwhile: they stay until it is published in turn.
     */
    void published(long id, String owner, List<UUID> commands) {
        jdbc.update(PUBLISHED, commands.stream().map(UUID::toString).toArray(String[]::new), id, owner);
    }

    /**
     * Lets the batch go in {@code state}: STOPPED, DONE, or FAILED with why and the items refused. A batch its own run
     * stops (its operator, Ctrl-C) is audited here; one stopped from elsewhere was audited by {@link #stop}.
     */
    void release(long id, String owner, BatchState state, int failed, String error, Instant at) {
        jdbc.inTransaction(() -> {
            Optional<Before> before = before(id);
            boolean released = jdbc.update(RELEASE, state, failed, error, state.name(), id, owner) == 1;
            if (released && state == BatchState.STOPPED && before.orElseThrow().state() == BatchState.RUNNING) {
                DurableBatch batch = find(id).orElseThrow().batch();
                audit(at, AuditAction.BATCH_STOPPED, batch, details(batch, owner));
            }
        });
    }

    /**
     * Asks the process running the batch to stop: its next chunk is not taken; audited. False when it was not RUNNING.
     */
    boolean stop(long id, Instant at) {
        return jdbc.inTransaction(() -> {
            Optional<Row> stopped = jdbc.queryOne(STOP, BatchStore::row, id);
            stopped.ifPresent(row -> audit(at, AuditAction.BATCH_STOPPED, row.batch(),
                    details(row.batch(), row.batch().owner())));
            return stopped.isPresent();
        });
    }

    private Optional<Before> before(long id) {
        return jdbc.queryOne(LOCK, row -> new Before(BatchState.valueOf(row.getString("state")), row.getString("owner")),
                id);
    }

    /** What a batch's audit line says about it; {@code process} is the one that ran it, or now runs it. */
    private static Map<String, Object> details(DurableBatch batch, String process) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("batch_id", batch.id());
        details.put("kind", batch.kind().name());
        details.put("selection", batch.selection().describe());
        details.put("done", batch.done());
        details.put("total", batch.total());
        details.put("process", process);
        return details;
    }

    private void audit(Instant at, AuditAction action, DurableBatch batch, Map<String, Object> details) {
        audit.append(new AuditLine(at, batch.operator(), action, AuditSubject.NONE, null, details));
    }

    private static Row row(ResultSet row) throws SQLException {
        DurableBatch batch = new DurableBatch(row.getLong("id"), DecisionKind.valueOf(row.getString("kind")),
                BatchSelection.fromJson(row.getString("selection")), row.getString("operator"),
                row.getString("db_login"), row.getString("reason"), row.getString("schema_version"),
                row.getDouble("items_per_second"), row.getInt("chunk_size"), BatchState.valueOf(row.getString("state")),
                row.getString("position"), row.getLong("total"), row.getLong("done"), row.getLong("succeeded"),
                row.getLong("blocked"), row.getLong("failed"), row.getLong("left_out"), row.getString("owner"),
                Jdbc.instant(row, "lease_until"), row.getString("error"), Jdbc.instant(row, "created_at"),
                Jdbc.instant(row, "updated_at"), Jdbc.instant(row, "finished_at"));
        Array unpublished = row.getArray("unpublished");
        List<UUID> commands = unpublished == null ? List.of() : Arrays.asList((UUID[]) unpublished.getArray());
        return new Row(batch, commands, Jdbc.instant(row, "last_chunk_at"));
    }
}
