package dev.redrive.store.operation;

import dev.redrive.model.FailureClass;
import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Jdbc;
import dev.redrive.store.StoreException;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLog;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The worker's claims on operations and what it reads of them: load the facts, claim, renew, release and give back
 * leases, defer, discard, and find the stranded operations a sweep publishes again. What a finished attempt writes is
 * {@link AttemptCommits}'. Every state change is one guarded statement whose row count is checked against the
 * {@link OperationStatus} table.
 */
public final class OperationStore {
    /*
     * LOCK ORDER. A statement or transaction here that locks several operation rows and may wait for them takes them in
     * operation_id order: one worker's group commit and another worker's batch claim often name the same operations
     * (a lease that ran out while its attempt was committing, a redelivery), and if each took its rows in its own
     * order (whatever order the join plan reads them in), each could hold a row the other waits for. PostgreSQL then
     * aborts one of them after deadlock_timeout, which costs a whole batch: its claims are re-tried after the lease time,
     * its commits one by one. So the rows are locked by a SELECT ... ORDER BY operation_id FOR ... UPDATE that feeds the
     * UPDATE, and loops over several rows in one transaction go in the same order. The order is by bytes (COLLATE "C",
     * whatever the database's collation), which for operation ids (ASCII) is Java's String order too. The lock is
     * FOR NO KEY UPDATE, the one the UPDATE takes anyway, so inserting attempt rows (a foreign key) is never blocked.
     * Statements that never wait for a lock (SKIP LOCKED: renewal, sweep) and single-row ones need no order.
     */

    /*
     * One statement per batch of dispatches: claims the leases asked for and reads the facts of every operation named,
     * as they were before the claim (the outer SELECT sees the statement's snapshot, not the CTE's update). A row is
     * claimed only when its status may become RUNNING, its run is still running, a RUNNING row's lease has expired, a
     * scheduled retry is due, the attempt is not older than the record's, the dispatch carries the operation's own
     * parameters, and a redrive command (if the record names one) is the one the dispatch carries and still open:
     * everything the worker's eligibility rules ask of a claim that the facts decide. Each claim bumps the fencing
     * token and counts a processing delivery; a claimed redrive command becomes EXECUTING in the same statement. From the
 * claim on, the attempt's call is in doubt (last_call) until its commit says how it ended.
     * The claimable rows are locked first, in operation_id order (see LOCK ORDER above); the lock checks the
     * conditions again on a row that changed while the lock was awaited, so the UPDATE only writes rows still claimable.
     */
    private static final String CLAIM_AND_LOAD = """
            WITH requested AS (
                SELECT * FROM unnest(?::text[], ?::text[]::int[], ?::text[], ?::text[]::uuid[], ?::text[], ?::text[],
                                     ?::text[], ?::text[]::jsonb[])
                           AS r(operation_id, attempt, delivery_id, command_id, tool, tool_schema_version,
                                idempotency_key, payload)),
            claimable AS (
                SELECT o.operation_id, r.attempt, r.delivery_id
                  FROM operations o
                  JOIN requested r ON r.operation_id = o.operation_id
                  JOIN runs ON runs.run_id = o.run_id
                 WHERE runs.status = 'RUNNING'
                   AND o.status = ANY (?)
                   AND o.attempt <= r.attempt
                   AND o.tool = r.tool AND o.tool_schema_version = r.tool_schema_version
                   AND o.idempotency_key = r.idempotency_key AND o.payload = r.payload
                   AND (o.status <> 'RUNNING' OR o.lease_expires_at IS NULL OR o.lease_expires_at <= ?)
                   AND (o.status <> 'RETRY_SCHEDULED' OR o.next_eligible_at IS NULL OR o.next_eligible_at <= ?)
                   AND o.redrive_command_id IS NOT DISTINCT FROM r.command_id
                   AND (r.command_id IS NULL OR EXISTS (
                           SELECT 1 FROM redrive_commands c
                            WHERE c.command_id = r.command_id AND c.status IN ('ISSUED', 'EXECUTING')
                              AND c.to_attempt = r.attempt AND o.attempt = r.attempt))
                 ORDER BY o.operation_id COLLATE "C"
                   FOR NO KEY UPDATE OF o),
            claimed AS (
                UPDATE operations o
                   SET status = 'RUNNING', attempt = c.attempt, lease_owner = ?, lease_delivery_id = c.delivery_id,
                       lease_expires_at = ?, fencing_token = o.fencing_token + 1, next_eligible_at = NULL,
                       processing_deliveries = o.processing_deliveries + 1, last_call = 'IN_DOUBT', updated_at = ?
                  FROM claimable c
                 WHERE o.operation_id = c.operation_id
                RETURNING o.operation_id, o.attempt, o.fencing_token, o.redrive_command_id, o.processing_deliveries),
            executing AS (
                UPDATE redrive_commands c SET status = 'EXECUTING', executed_at = ?
                  FROM claimed
                 WHERE c.command_id = claimed.redrive_command_id AND c.status = 'ISSUED')
            SELECT o.*, r.status AS run_status, c.status AS command_status, c.to_attempt AS command_to_attempt,
                   (SELECT a.delivery_id FROM attempts a WHERE a.operation_id = o.operation_id
                     ORDER BY a.id DESC LIMIT 1) AS last_delivery_id,
                   cl.attempt AS claimed_attempt, cl.fencing_token AS claimed_fencing_token,
                   cl.processing_deliveries AS claimed_processing_deliveries
              FROM operations o
              JOIN runs r ON r.run_id = o.run_id
              LEFT JOIN redrive_commands c ON c.command_id = o.redrive_command_id
              LEFT JOIN claimed cl ON cl.operation_id = o.operation_id
             WHERE o.operation_id = ANY (?)
            """;

    private static final String GIVE_BACK_UNSTARTED = """
            UPDATE operations SET lease_expires_at = ?, updated_at = ?, last_call = ?,
                   processing_deliveries = greatest(processing_deliveries - 1, 0)
             WHERE operation_id = ? AND fencing_token = ? AND status = 'RUNNING'
            """;

    private static final String RELEASE = """
            UPDATE operations SET lease_expires_at = ?, updated_at = ?, last_call = ?
             WHERE operation_id = ? AND fencing_token = ? AND status = 'RUNNING'
            """;

    /*
     * The heartbeat of a batch of leases. Guarded by owner and fencing token: a lease another worker has taken over is
     * not extended. One whose time ran out without anyone taking it over is still this worker's and is extended too.
     * A row locked right now (being committed or claimed) is skipped rather than waited for: the heartbeat never waits
     * on a lock, so it can never deadlock with a commit or a claim, and the next tick tries again.
     */
    private static final String RENEW = """
            WITH held AS (
                SELECT o.operation_id FROM operations o
                  JOIN unnest(?::text[], ?::text[]::bigint[]) AS l(operation_id, fencing_token)
                    ON o.operation_id = l.operation_id AND o.fencing_token = l.fencing_token
                 WHERE o.lease_owner = ? AND o.status = 'RUNNING'
                   FOR UPDATE OF o SKIP LOCKED)
            UPDATE operations o SET lease_expires_at = ?
              FROM held
             WHERE o.operation_id = held.operation_id
            RETURNING o.operation_id
            """;

    private static final String DEFER = """
            UPDATE operations SET status = 'RETRY_SCHEDULED', next_eligible_at = ?, last_error_class = ?, updated_at = ?
             WHERE operation_id = ? AND attempt = ? AND status = ANY (?)
               AND NOT (status = 'RUNNING' AND lease_expires_at > ?)
            """;

    private static final String CANCEL_OPERATION = """
            UPDATE operations SET status = 'CANCELLED', lease_owner = NULL, lease_delivery_id = NULL,
                   lease_expires_at = NULL, updated_at = ?
             WHERE operation_id = ? AND status = ANY (?)
               AND (status <> 'RUNNING' OR lease_expires_at IS NULL OR lease_expires_at <= ?)
            """;

    private static final String FAIL_COMMAND = """
            UPDATE redrive_commands SET status = 'FAILED', completed_at = ?
             WHERE command_id = ? AND status IN ('ISSUED', 'EXECUTING')
            """;

    /*
     * Waiting longer than the grace period without a worker having touched them: a PENDING operation whose dispatch
     * Redis lost, a retry whose retry-set member was lost, a RUNNING one whose lease expired long ago. SKIP LOCKED and
     * swept_at let concurrent sweeps share the work and re-publish each at most once per grace period. The in_flight
     * column names the index that holds only the operations the sweep may return (V250).
     */
    private static final String SWEEP = """
            WITH stranded AS (
                SELECT operation_id FROM operations
                 WHERE in_flight AND ((status = 'PENDING' AND updated_at < ?)
                        OR (status = 'RETRY_SCHEDULED' AND (? OR next_eligible_at < ?))
                        OR (status = 'RUNNING' AND lease_expires_at < ?))
                   AND (swept_at IS NULL OR swept_at < ?)
                 ORDER BY updated_at
                 LIMIT ?
                   FOR UPDATE SKIP LOCKED)
            UPDATE operations o SET swept_at = ?
              FROM stranded s
             WHERE o.operation_id = s.operation_id
            RETURNING o.operation_id
            """;

    private static final String WAITING_FOR = """
            SELECT operation_id FROM operations
             WHERE in_flight AND redrive_command_id = ANY (?::text[]::uuid[]) AND status = 'PENDING'
            """;

    private static final String KNOWN_COMMANDS = """
            SELECT command_id, operation_id FROM redrive_commands WHERE command_id = ANY (?::text[]::uuid[])
            """;

    private final Jdbc jdbc;
    private final AuditLog audit;

    public OperationStore(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.audit = new AuditLog(jdbc);
    }

    /** The records of the given operations with their run's status, in one query; unknown ids are absent. */
    public Map<String, OperationFacts> load(Collection<String> operationIds) {
        return claimAndLoad(operationIds, List.of(), null, null, Duration.ZERO).records();
    }

    /**
     * Claims leases for {@code claims} and reads the facts of every operation in {@code operationIds} (which should
     * include the claimed ones), in one statement: one round trip, one commit. Each claim bumps the fencing token and
     * counts a processing delivery; claims that lost (another worker holds a live lease, the run ended, the command is
     * not valid any more, ...) are simply absent from the leases. The records show each operation as it was before
     * this statement's claims, which is what the eligibility rules are asked about.
     */
    public Sighting claimAndLoad(Collection<String> operationIds, List<ClaimRequest> claims, String owner, Instant now,
                                 Duration leaseDuration) {
        if (operationIds.isEmpty()) {
            return new Sighting(Map.of(), Map.of());
        }
        Set<String> seen = new HashSet<>();
        for (ClaimRequest claim : claims) {
            if (!seen.add(claim.operationId())) {
                throw new IllegalArgumentException("one claim per operation per batch, twice: " + claim.operationId());
            }
        }
        Instant expiresAt = now == null ? null : now.plus(leaseDuration);
        String[] ids = claims.stream().map(ClaimRequest::operationId).toArray(String[]::new);
        String[] attempts = claims.stream().map(claim -> Integer.toString(claim.attempt())).toArray(String[]::new);
        String[] deliveries = claims.stream().map(ClaimRequest::deliveryId).toArray(String[]::new);
        String[] commands = claims.stream()
                .map(claim -> claim.redriveCommandId() == null ? null : claim.redriveCommandId().toString())
                .toArray(String[]::new);
        String[] tools = claims.stream().map(ClaimRequest::tool).toArray(String[]::new);
        String[] schemaVersions = claims.stream().map(ClaimRequest::toolSchemaVersion).toArray(String[]::new);
        String[] keys = claims.stream().map(ClaimRequest::idempotencyKey).toArray(String[]::new);
        String[] payloads = claims.stream().map(ClaimRequest::payload).toArray(String[]::new);
        Map<String, OperationFacts> records = new LinkedHashMap<>();
        Map<String, Lease> leases = new LinkedHashMap<>();
        jdbc.query(CLAIM_AND_LOAD, row -> {
            OperationFacts record = record(row);
            records.put(record.operationId(), record);
            long fencingToken = row.getLong("claimed_fencing_token");
            if (!row.wasNull()) {
                leases.put(record.operationId(), new Lease(record.operationId(), row.getInt("claimed_attempt"), owner,
                        fencingToken, now, expiresAt, record.redriveCommandId(),
                        record.status() == OperationStatus.RUNNING, row.getInt("claimed_processing_deliveries"),
                        record.lastCall()));
            }
            return record;
        }, ids, attempts, deliveries, commands, tools, schemaVersions, keys, payloads,
                OperationStatus.allowedBefore(OperationStatus.RUNNING), now, now, owner, expiresAt, now, now,
                operationIds.toArray(String[]::new));
        return new Sighting(records, leases);
    }

    /**
     * What one batch learnt: the facts of each operation before the batch's claims, and the leases it won.
     *
     * @param records by operation id; operations never recorded are absent
     * @param leases  by operation id, for the claims that won
     */
    public record Sighting(Map<String, OperationFacts> records, Map<String, Lease> leases) {
    }

    /**
     * Gives a lease up early (the handler crashed, or the worker is shutting down) so that the next delivery can claim
     * the operation at once, with what is known of the attempt's call: IN_DOUBT when it may still be running,
     * ANSWERED_FAILURE when the tool's code gave up with an exception. Refused, and false, when the fencing token no
     * longer matches.
     */
    public boolean release(Lease lease, LastCall lastCall, Instant now) {
        return checkSingleRow(jdbc.update(RELEASE, now, now, lastCall.name(), lease.operationId(), lease.fencingToken()),
                lease.operationId()) == 1;
    }

    /**
     * Gives a lease back whose attempt never started (the batch failed after the claim, the lease ran out before a
     * pool thread was free, ...): like {@link #release}, and the claim does not count as a processing delivery, since
     * nothing was tried; what was known of the latest call before the claim holds again. Refused, and false, when the fencing token no longer matches.
     */
    public boolean giveBackUnstarted(Lease lease, Instant now) {
        return checkSingleRow(jdbc.update(GIVE_BACK_UNSTARTED, now, now, lease.priorCall().name(), lease.operationId(),
                        lease.fencingToken()),
                lease.operationId()) == 1;
    }

    /**
     * Extends leases of {@code owner} to {@code expiresAt} in one statement; returns the ids of the operations whose
     * lease was extended. A lease that was taken over (fencing token moved on) or finished is absent from the answer,
     * and an attempt running under a taken-over lease cannot commit. So is one whose row was locked at that moment.
     */
    public Set<String> renew(Collection<Lease> leases, String owner, Instant expiresAt) {
        if (leases.isEmpty()) {
            return Set.of();
        }
        String[] ids = leases.stream().map(Lease::operationId).toArray(String[]::new);
        String[] tokens = leases.stream().map(lease -> Long.toString(lease.fencingToken())).toArray(String[]::new);
        List<String> renewed = jdbc.query(RENEW, row -> row.getString(1), ids, tokens, owner, expiresAt);
        Set<String> distinct = new HashSet<>(renewed);
        if (renewed.size() > leases.size() || distinct.size() < renewed.size()) {
            throw new StoreException("renewing " + leases.size() + " leases changed " + renewed.size() + " rows");
        }
        return distinct;
    }

    /**
     * Puts operations off without spending an attempt; returns which of them were still waiting to run. An operation
     * another worker claimed meanwhile (a live lease) is left to that worker.
     */
    public List<Deferral> defer(List<Deferral> deferrals, Instant now) {
        if (deferrals.isEmpty()) {
            return List.of();
        }
        return jdbc.inTransaction(() -> {
            List<Deferral> deferred = new ArrayList<>();
            for (Deferral deferral : inLockOrder(deferrals, Deferral::operationId)) {
                int updated = jdbc.update(DEFER, deferral.until(), deferral.because(), now, deferral.operationId(),
                        deferral.attempt(), OperationStatus.allowedBefore(OperationStatus.RETRY_SCHEDULED), now);
                if (checkSingleRow(updated, deferral.operationId()) == 1) {
                    deferred.add(deferral);
                }
            }
            return deferred;
        });
    }

    /**
     * Records why dispatches were acked without running, in one transaction; cancels operations whose run ended and
     * fails the redrive commands that can no longer execute.
     */
    public void recordDiscards(List<DiscardedDispatch> discards, Instant now) {
        if (discards.isEmpty()) {
            return;
        }
        jdbc.inTransaction(() -> {
            List<AuditLine> lines = new ArrayList<>(discards.size());
            for (DiscardedDispatch discard : inLockOrder(discards, DiscardedDispatch::operationId)) {
                lines.add(new AuditLine(now, DiscardedDispatch.ACTOR, AuditAction.DISPATCH_DISCARDED,
                        new AuditSubject(discard.operationId(), null, discard.commandId()), discard.reason(),
                        discard.details()));
                if (discard.cancelOperation() && discard.operationId() != null) {
                    jdbc.update(CANCEL_OPERATION, now, discard.operationId(),
                            OperationStatus.allowedBefore(OperationStatus.CANCELLED), now);
                }
                if (discard.failCommand() && discard.commandId() != null) {
                    jdbc.update(FAIL_COMMAND, now, discard.commandId());
                }
            }
            audit.appendAll(lines);
        });
    }

    /** Of the given redrive command ids, the ones that exist, each with the operation it was issued for. */
    public Map<UUID, String> redriveCommands(Collection<UUID> commandIds) {
        if (commandIds.isEmpty()) {
            return Map.of();
        }
        Map<UUID, String> found = new LinkedHashMap<>();
        jdbc.query(KNOWN_COMMANDS, row -> found.put(row.getObject(1, UUID.class), row.getString(2)),
                (Object) commandIds.stream().map(UUID::toString).toArray(String[]::new));
        return found;
    }

    /** The operations still PENDING with one of these redrive commands: redrives whose dispatch no worker took yet. */
    public List<OperationFacts> waitingFor(Collection<UUID> commandIds) {
        List<String> ids = jdbc.query(WAITING_FOR, row -> row.getString(1),
                (Object) commandIds.stream().map(UUID::toString).toArray(String[]::new));
        return new ArrayList<>(load(ids).values());
    }

    /**
     * Takes up to {@code limit} operations that have waited for a worker since before {@code stuckBefore} (Redis may
     * have lost their dispatch) and that no sweep took since {@code sweptBefore}, and marks them swept, so that each is
     * re-published at most once per grace period. With {@code everyRetry} (Redis is known to have lost its data) every
     * scheduled retry is taken, due or not: the retry set that held it is gone.
     */
    public List<OperationFacts> sweepStranded(Instant stuckBefore, Instant sweptBefore, Instant now, boolean everyRetry,
                                               int limit) {
        List<String> ids = jdbc.query(SWEEP, row -> row.getString(1), stuckBefore, everyRetry, stuckBefore, stuckBefore,
                sweptBefore, limit, now);
        return new ArrayList<>(load(ids).values());
    }

    /** The rows a loop of single-row statements in one transaction locks, in the order of LOCK ORDER above. */
    private static <T> List<T> inLockOrder(List<T> rows, Function<T, String> operationId) {
        return rows.stream().sorted(Comparator.comparing(operationId, Comparator.nullsFirst(Comparator.naturalOrder())))
                .toList();
    }

    private static int checkSingleRow(int updated, String operationId) {
        if (updated > 1) {
            throw new StoreException("one operation row expected, " + updated + " changed for " + operationId);
        }
        return updated;
    }

    private static OperationFacts record(ResultSet row) throws SQLException {
        String lastErrorClass = row.getString("last_error_class");
        return new OperationFacts(
                row.getString("operation_id"),
                row.getString("run_id"),
                RunStatus.valueOf(row.getString("run_status")),
                OperationStatus.valueOf(row.getString("status")),
                row.getInt("attempt"),
                row.getString("tool"),
                row.getString("tool_schema_version"),
                row.getString("idempotency_key"),
                row.getString("payload"),
                row.getString("approval_id"),
                row.getString("trace_id"),
                row.getString("correlation_id"),
                row.getString("runtime_version"),
                row.getString("lease_owner"),
                row.getString("lease_delivery_id"),
                row.getLong("fencing_token"),
                Jdbc.instant(row, "lease_expires_at"),
                row.getString("result"),
                SideEffectState.valueOf(row.getString("side_effect")),
                lastErrorClass == null ? null : FailureClass.valueOf(lastErrorClass),
                Jdbc.instant(row, "next_eligible_at"),
                row.getObject("redrive_command_id", UUID.class),
                row.getString("command_status"),
                Jdbc.nullableInt(row, "command_to_attempt"),
                row.getString("last_delivery_id"),
                Jdbc.instant(row, "updated_at"),
                row.getInt("processing_deliveries"),
                row.getString("traceparent"),
                LastCall.valueOf(row.getString("last_call")));
    }
}
