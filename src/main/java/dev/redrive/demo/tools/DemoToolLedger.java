package dev.redrive.demo.tools;

import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the demo tool service received and what it changed: {@code demo_tool_calls}, {@code demo_tool_effects} and
 * {@code demo_tool_lookups}. Work for one idempotency key is serialised by a transaction-scoped advisory lock, so
 * per-key call counts and the once-only effect hold even when several servers share a namespace.
 */
final class DemoToolLedger {
    private final Jdbc jdbc;

    DemoToolLedger(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Runs {@code work} in one transaction that holds the key's lock. */
    <T> T underKeyLock(String idempotencyKey, Supplier<T> work) {
        return jdbc.inTransaction(() -> {
            jdbc.query("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", row -> 1, "demo-tool:" + idempotencyKey);
            return work.get();
        });
    }

    int callsSoFar(String tool, String idempotencyKey) {
        return (int) jdbc.queryLong("""
                SELECT count(*) FROM demo_tool_calls WHERE tool = ? AND idempotency_key = ?
                """, tool, idempotencyKey);
    }

    void recordCall(String tool, ReceivedCall request, int httpStatus, FaultKind fault, String body) {
        jdbc.update("""
                INSERT INTO demo_tool_calls (received_at, tool, idempotency_key, operation_id, attempt, http_status, fault, body)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, request.receivedAt(), tool, request.idempotencyKey(), request.operationId(), request.attempt(),
                httpStatus, fault == null ? null : fault.wireName(), Json.of(body));
    }

    Optional<String> effectResult(String idempotencyKey) {
        return jdbc.queryOne("SELECT result::text FROM demo_tool_effects WHERE idempotency_key = ? ORDER BY id LIMIT 1",
                row -> row.getString(1), idempotencyKey);
    }

    /** The effects applied for the key: what the look-up answers as {@code "effects"}, for a redrive's verification. */
    long effectsFor(String tool, String idempotencyKey) {
        return jdbc.queryLong("SELECT count(*) FROM demo_tool_effects WHERE tool = ? AND idempotency_key = ?",
                tool, idempotencyKey);
    }

    void recordEffect(String tool, String idempotencyKey, String operationId, BigDecimal amount, String result,
                      Instant appliedAt) {
        jdbc.update("""
                INSERT INTO demo_tool_effects (idempotency_key, operation_id, tool, amount, result, applied_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, idempotencyKey, operationId, tool, amount, Json.of(result), appliedAt);
    }

    int lookupsSoFar(String tool, String idempotencyKey) {
        return (int) jdbc.queryLong("""
                SELECT count(*) FROM demo_tool_lookups WHERE tool = ? AND idempotency_key = ?
                """, tool, idempotencyKey);
    }

    void recordLookup(String tool, String idempotencyKey, int httpStatus, Instant receivedAt) {
        jdbc.update("""
                INSERT INTO demo_tool_lookups (received_at, tool, idempotency_key, http_status) VALUES (?, ?, ?, ?)
                """, receivedAt, tool, idempotencyKey, httpStatus);
    }

    /** The fault list of the last call that carried the key, which also governs its look-ups. */
    Optional<String> lastFaultText(String tool, String idempotencyKey) {
        return jdbc.queryOne("""
                SELECT coalesce(body->>'fault', '') FROM demo_tool_calls
                WHERE tool = ? AND idempotency_key = ? AND jsonb_typeof(body) = 'object'
                ORDER BY id DESC LIMIT 1
                """, row -> row.getString(1), tool, idempotencyKey);
    }

    long recordServerStarted(String baseUrl, long pid, Instant startedAt) {
        return jdbc.queryLong("""
                INSERT INTO demo_tool_servers (base_url, pid, started_at) VALUES (?, ?, ?) RETURNING id
                """, baseUrl, pid, startedAt);
    }

    void recordServerStopped(long serverId, Instant stoppedAt) {
        jdbc.update("UPDATE demo_tool_servers SET stopped_at = ? WHERE id = ? AND stopped_at IS NULL", stoppedAt, serverId);
    }

    Optional<String> latestRunningServer() {
        return jdbc.queryOne("""
                SELECT base_url FROM demo_tool_servers WHERE stopped_at IS NULL ORDER BY started_at DESC, id DESC LIMIT 1
                """, row -> row.getString(1));
    }
}
