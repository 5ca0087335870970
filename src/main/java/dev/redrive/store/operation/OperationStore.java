package dev.redrive.store.operation;

import dev.redrive.model.FailureClass;
import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Jdbc;
import dev.redrive.store.StoreException;
import dev.redrive.store.UnnestedRows;
import dev.redrive.store.audit.AuditAction;
import dev.redrive.store.audit.AuditLine.AuditSubject;
import dev.redrive.store.audit.AuditLine;
import dev.redrive.store.audit.AuditLog;
import dev.redrive.store.deadletter.DeadLetterEvent;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.store.deadletter.OperationDeadLetter;
import dev.redrive.store.reconciliation.ReconciliationLog;

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
 * The worker's reads and writes of operations: load the facts, claim leases, commit attempts, defer and discard.
 * Every state change is one guarded statement whose row count is checked against the {@link OperationStatus} table.
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

    /*
     * One statement finishes a whole group of attempts and writes their attempt rows; a row whose fencing token moved on
     * is neither finished nor given an attempt row, and is not returned. Settling resets the processing deliveries.
     * The rows are locked first, in operation_id order (see LOCK ORDER above), and the guard is checked again on a row
     * that changed while the lock was awaited.
     */
    private static final String FINISH = """
            WITH v AS (SELECT * FROM %s),
            """.formatted(UnnestedRows.unnest(FinishColumn.class)) + """
            held AS (
                SELECT v.*
                  FROM operations o
                  JOIN v ON v.operation_id = o.operation_id
                 WHERE o.fencing_token = v.fencing_token AND o.status = 'RUNNING'
                 ORDER BY o.operation_id COLLATE "C"
                   FOR NO KEY UPDATE OF o),
            finished AS (
                UPDATE operations o
                   SET status = h.status, attempt = h.next_attempt, result = COALESCE(h.result, o.result),
                       side_effect = h.side_effect, last_call = h.last_call,
                       last_error_class = CASE WHEN h.status = 'SUCCEEDED' THEN NULL ELSE h.error_class END,
                       next_eligible_at = h.next_eligible_at, redrive_command_id = h.command_id, lease_owner = NULL,
                       lease_delivery_id = NULL, lease_expires_at = NULL, processing_deliveries = 0,
                       updated_at = h.finished_at
                  FROM held h
                 WHERE o.operation_id = h.operation_id
                RETURNING o.operation_id),
            recorded AS (
                INSERT INTO attempts (operation_id, attempt, delivery_id, delivery_count, consumer, fencing_token,
                                      redrive_command_id, started_at, finished_at, outcome, error_class, error_code,
                                      error_message, retry_after_ms, next_eligible_at, side_effect, trace_id, span_id)
                SELECT v.operation_id, v.attempt, v.delivery_id, v.delivery_count, v.consumer, v.fencing_token,
                       v.lease_command_id, v.started_at, v.finished_at, v.status, v.error_class, v.error_code,
                       v.error_message, v.retry_after_ms, v.next_eligible_at, v.side_effect, v.trace_id, v.span_id
                  FROM v JOIN finished f ON f.operation_id = v.operation_id)
            SELECT operation_id FROM finished
            """;

    private static final String COMMAND_DONE = """
            UPDATE redrive_commands SET status = ?, completed_at = ?
             WHERE command_id = ? AND status = 'EXECUTING'
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
    private final DeadLetterStore deadLetters;
    private final AuditLog audit;
    private final ReconciliationLog reconciliations;

    public OperationStore(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.deadLetters = new DeadLetterStore(jdbc);
        this.audit = new AuditLog(jdbc);
        this.reconciliations = new ReconciliationLog(jdbc);
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
     * Commits finished attempts: status changes and attempt rows in one statement, each guarded by its fencing token
     * (a worker whose lease was taken over gets {@code committed = false} for that operation and writes nothing for
     * it). A group that also records a reconciliation, settles a redrive command or enters the DLQ needs more
     * statements; then they all run in one transaction.
     */
    public List<CommitResult> commit(List<AttemptCommit> commits) {
        if (commits.isEmpty()) {
            return List.of();
        }
        boolean oneStatement = commits.stream().allMatch(commit -> commit.reconciliation() == null
                && commit.lease().redriveCommandId() == null && commit.outcome() != OperationStatus.DEAD_LETTERED);
        return oneStatement ? finish(commits) : jdbc.inTransaction(() -> finish(commits));
    }

    private List<CommitResult> finish(List<AttemptCommit> commits) {
        Set<String> finished = new HashSet<>(jdbc.query(FINISH, row -> row.getString(1), finishParameters(commits)));
        commits.stream()
                .filter(commit -> commit.reconciliation() != null && finished.contains(commit.lease().operationId()))
                .forEach(commit -> reconciliations.record(commit.lease().operationId(), commit.reconciliation(),
                        commit.finishedAt()));
        List<CommitResult> results = new ArrayList<>(commits.size());
        for (AttemptCommit commit : commits) {
            boolean done = finished.contains(commit.lease().operationId());
            results.add(new CommitResult(commit, done, done ? afterFinish(commit) : null));
        }
        return results;
    }

    /** The rows FINISH reads, one per commit. */
    private enum FinishColumn implements UnnestedRows.Column {
        OPERATION_ID("text"), FENCING_TOKEN("bigint"), STATUS("text"), NEXT_ATTEMPT("int"), RESULT("jsonb"),
        SIDE_EFFECT("text"), LAST_CALL("text"), ERROR_CLASS("text"), NEXT_ELIGIBLE_AT("timestamptz"), COMMAND_ID("uuid"),
        FINISHED_AT("timestamptz"), ATTEMPT("int"), DELIVERY_ID("text"), DELIVERY_COUNT("int"), CONSUMER("text"),
        LEASE_COMMAND_ID("uuid"), STARTED_AT("timestamptz"), ERROR_CODE("text"), ERROR_MESSAGE("text"),
        RETRY_AFTER_MS("bigint"), TRACE_ID("text"), SPAN_ID("text");

        private final String sqlType;

        FinishColumn(String sqlType) {
            this.sqlType = sqlType;
        }

        @Override
        public String sqlType() {
            return sqlType;
        }
    }

    private static Object[] finishParameters(List<AttemptCommit> commits) {
        UnnestedRows<FinishColumn> rows = new UnnestedRows<>(FinishColumn.class, commits.size());
        Set<String> seen = new HashSet<>();
        for (AttemptCommit commit : commits) {
            Lease lease = commit.lease();
            if (!seen.add(lease.operationId())) {
                throw new IllegalArgumentException("one commit per operation per group, twice: " + lease.operationId());
            }
            OperationStatus outcome = commit.outcome();
            boolean retry = outcome == OperationStatus.RETRY_SCHEDULED;
            AttemptError error = commit.error();
            DeliveryInfo delivery = commit.delivery();
            rows.nextRow()
                    .set(FinishColumn.OPERATION_ID, lease.operationId())
                    .set(FinishColumn.FENCING_TOKEN, lease.fencingToken())
                    .set(FinishColumn.STATUS, outcome.name())
                    .set(FinishColumn.NEXT_ATTEMPT, retry ? lease.attempt() + 1 : lease.attempt())
                    .set(FinishColumn.RESULT, commit.result())
                    .set(FinishColumn.SIDE_EFFECT, commit.sideEffect().name())
                    .set(FinishColumn.LAST_CALL, commit.lastCall().name())
                    .set(FinishColumn.ERROR_CLASS, error == null ? null : error.failureClass().name())
                    .set(FinishColumn.NEXT_ELIGIBLE_AT, commit.nextEligibleAt())
                    // a retry is not run under the command that ran this attempt
                    .set(FinishColumn.COMMAND_ID, retry ? null : lease.redriveCommandId())
                    .set(FinishColumn.FINISHED_AT, commit.finishedAt())
                    .set(FinishColumn.ATTEMPT, lease.attempt())
                    .set(FinishColumn.DELIVERY_ID, delivery == null ? null : delivery.entryId())
                    .set(FinishColumn.DELIVERY_COUNT, delivery == null ? null : delivery.deliveryCount())
                    .set(FinishColumn.CONSUMER, lease.owner())
                    .set(FinishColumn.LEASE_COMMAND_ID, lease.redriveCommandId())
                    .set(FinishColumn.STARTED_AT, lease.claimedAt())
                    .set(FinishColumn.ERROR_CODE, error == null ? null : error.code())
                    .set(FinishColumn.ERROR_MESSAGE, error == null ? null : error.message())
                    .set(FinishColumn.RETRY_AFTER_MS, commit.retryAfter() == null ? null : commit.retryAfter().toMillis())
                    .set(FinishColumn.TRACE_ID, commit.span() == null ? null : commit.span().traceId())
                    .set(FinishColumn.SPAN_ID, commit.span() == null ? null : commit.span().spanId());
        }
        return rows.parameters();
    }

    /** What a committed attempt changes beyond its operation row: its redrive command and its DLQ entry. */
    private DeadLetterEvent afterFinish(AttemptCommit commit) {
        Lease lease = commit.lease();
        if (lease.redriveCommandId() != null) {
            jdbc.update(COMMAND_DONE, commit.outcome() == OperationStatus.SUCCEEDED ? "SUCCEEDED" : "FAILED",
                    commit.finishedAt(), lease.redriveCommandId());
        }
        return commit.outcome() == OperationStatus.DEAD_LETTERED ? deadLetters.enterForOperation(deadLetter(commit)) : null;
    }

    private static OperationDeadLetter deadLetter(AttemptCommit commit) {
        Lease lease = commit.lease();
        DeliveryInfo delivery = commit.delivery();
        AttemptError error = commit.error();
        AttemptCommit.DeadLetterEvidence evidence = commit.deadLetter();
        return new OperationDeadLetter(lease.operationId(), lease.attempt(),
                delivery == null ? null : delivery.stream(),
                delivery == null ? null : delivery.entryId(),
                delivery == null ? null : (int) delivery.deliveryCount(),
                delivery == null ? null : delivery.consumer(),
                error.failureClass(), error.code(), error.message(), commit.sideEffect(), evidence.rawMessage(),
                evidence.deliveryHistory(), evidence.fingerprint(), evidence.runtimeVersion(), commit.finishedAt());
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
