package dev.redrive.store.deadletter;

import dev.redrive.store.Jdbc;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLog;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Purges the bulky evidence of decided DLQ entries decided before a moment: the raw message, the payload, the attempt
 * and the delivery history. Identity, error, side effect, decision and the audit log stay. An open entry is never
 * touched (the database refuses it too). Each chunk is one transaction that empties its entries, adds them to the
 * purge's row and writes its audit line, so a purge stopped between chunks leaves every entry either whole or purged
 * and named by its purge; what it did not reach, the next purge takes. Rows locked by a decision or another purge
 * are skipped, not waited for.
 */
public final class EvidencePurge {
    /** Entries per transaction: short enough that a chunk never holds locks for long. */
    public static final int CHUNK = 1_000;

    private static final String PURGEABLE = """
            decision_state <> 'OPEN' AND evidence_purged_at IS NULL AND decided_at < ?""";
    private static final String EVIDENCE_BYTES = """
            coalesce(pg_column_size(raw_message), 0) + coalesce(pg_column_size(payload), 0)
            + pg_column_size(attempt_history) + pg_column_size(delivery_history)""";
    private static final String PREVIEW = """
            SELECT count(*), coalesce(sum(%s), 0), min(decided_at), max(decided_at)
              FROM dlq_entries WHERE %s""".formatted(EVIDENCE_BYTES, PURGEABLE);
    private static final String ANY = "SELECT EXISTS (SELECT FROM dlq_entries WHERE " + PURGEABLE + ")";
    private static final String START = """
            INSERT INTO evidence_purges (decided_before, requested_by, started_at) VALUES (?, ?, ?) RETURNING id""";
    private static final String PURGE_CHUNK = """
            WITH chosen AS (
                SELECT id, %s AS bytes FROM dlq_entries
                 WHERE %s ORDER BY decided_at, id LIMIT ? FOR UPDATE SKIP LOCKED)
            UPDATE dlq_entries e
               SET raw_message = NULL, payload = NULL, attempt_history = '[]', delivery_history = '[]',
                   evidence_purge_id = ?, evidence_purged_at = ?
              FROM chosen WHERE e.id = chosen.id
            RETURNING e.id, chosen.bytes""".formatted(EVIDENCE_BYTES, PURGEABLE);
    private static final String ADD_TO_PURGE = """
            UPDATE evidence_purges SET entries = entries + ?, bytes = bytes + ?, finished_at = ? WHERE id = ?""";

    private final Jdbc jdbc;
    private final AuditLog audit;

    public EvidencePurge(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.audit = new AuditLog(jdbc);
    }

    /** What a purge of entries decided before {@code decidedBefore} would take, writing nothing. */
    public PurgePreview preview(Instant decidedBefore) {
        return jdbc.queryOne(PREVIEW, row -> new PurgePreview(decidedBefore, row.getLong(1), row.getLong(2),
                Jdbc.instant(row, "min"), Jdbc.instant(row, "max")), decidedBefore).orElseThrow();
    }

    /**
     * Purges, a chunk per transaction, until nothing decided before {@code decidedBefore} holds evidence or
     * {@code maxEntries} were purged.
     *
     * @param requestedBy the name typed, or what purged on its own ("retention policy")
     * @return the purge, or an empty one (id null) when there was nothing to purge
     */
    public PurgeSummary purge(Instant decidedBefore, String requestedBy, Instant now, int chunk, long maxEntries) {
        Objects.requireNonNull(decidedBefore, "decidedBefore");
        if (requestedBy == null || requestedBy.isBlank()) {
            throw new IllegalArgumentException("a purge needs the name of who asks for it");
        }
        if (chunk < 1 || maxEntries < 1) {
            throw new IllegalArgumentException("a purge takes at least one entry per chunk and in all");
        }
        if (!jdbc.queryOne(ANY, row -> row.getBoolean(1), decidedBefore).orElse(false)) {
            return new PurgeSummary(null, decidedBefore, 0, 0);
        }
        Long purgeId = null;
        long entries = 0;
        long bytes = 0;
        while (entries < maxEntries) {
            int size = (int) Math.min(chunk, maxEntries - entries);
            Long known = purgeId;
            ChunkResult done = jdbc.inTransaction(() -> purgeChunk(known, decidedBefore, requestedBy, now, size));
            purgeId = done.purgeId();
            entries += done.entries();
            bytes += done.bytes();
            if (done.entries() < size) {
                break;
            }
        }
        return new PurgeSummary(purgeId, decidedBefore, entries, bytes);
    }

    private record ChunkResult(Long purgeId, int entries, long bytes) {
    }

    private record Purged(long entryId, long bytes) {
    }

    private ChunkResult purgeChunk(Long known, Instant decidedBefore, String requestedBy, Instant now, int size) {
        long purgeId = known != null ? known
                : jdbc.queryLong(START, decidedBefore, requestedBy, now);
        List<Purged> purged = jdbc.query(PURGE_CHUNK, row -> new Purged(row.getLong(1), row.getLong(2)),
                decidedBefore, size, purgeId, now);
        long bytes = purged.stream().mapToLong(Purged::bytes).sum();
        jdbc.update(ADD_TO_PURGE, purged.size(), bytes, now, purgeId);
        if (!purged.isEmpty()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("purge_id", purgeId);
            details.put("decided_before", decidedBefore);
            details.put("entries", purged.size());
            details.put("bytes", bytes);
            details.put("entry_ids", purged.stream().mapToLong(Purged::entryId).sorted().toArray());
            audit.append(new AuditLine(now, requestedBy, AuditAction.EVIDENCE_PURGED, AuditSubject.NONE,
                    "evidence of entries decided before " + decidedBefore, details));
        }
        return new ChunkResult(purgeId, purged.size(), bytes);
    }
}
