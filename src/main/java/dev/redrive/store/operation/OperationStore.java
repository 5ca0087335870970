package dev.redrive.store.operation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.redrive.model.FailureClass;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.RunStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.StoreException;
import dev.redrive.store.deadletter.DeadLetterEvent;
import dev.redrive.store.deadletter.DeadLetterStore;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The worker's reads and writes of operations: load the facts, claim leases, commit attempts, defer and discard.
 * Every state change is one guarded statement whose row count is checked against the {@link OperationStatus} table.
 */
public final class OperationStore {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String LOAD = """
            SELECT o.*, r.status AS run_status, c.status AS command_status, c.to_attempt AS command_to_attempt,
                   (SELECT a.delivery_id FROM attempts a WHERE a.operation_id = o.operation_id
                     ORDER BY a.id DESC LIMIT 1) AS last_delivery_id
              FROM operations o
              JOIN runs r ON r.run_id = o.run_id
              LEFT JOIN redrive_commands c ON c.command_id = o.redrive_command_id
             WHERE o.operation_id = ANY (?)
            """;

    /*
     * One statement claims the whole batch. A row is claimed only when its status may become RUNNING, its run is
     * still running, a RUNNING row's lease has expired, a scheduled retry is due, the attempt is not older than the
     * record's, and a redrive command (if the record names one) is the one the dispatch carries and still open.
     */
    private static final String CLAIM = """
            UPDATE operations o
               SET status = 'RUNNING', attempt = r.attempt, lease_owner = ?, lease_delivery_id = r.delivery_id,
                   lease_expires_at = ?, fencing_token = o.fencing_token + 1, next_eligible_at = NULL, updated_at = ?
              FROM unnest(?::text[], ?::text[]::int[], ?::text[], ?::text[]::uuid[])
                       AS r(operation_id, attempt, delivery_id, command_id),
                   runs
             WHERE o.operation_id = r.operation_id
               AND runs.run_id = o.run_id AND runs.status = 'RUNNING'
               AND o.status = ANY (?)
               AND o.attempt <= r.attempt
               AND (o.status <> 'RUNNING' OR o.lease_expires_at IS NULL OR o.lease_expires_at <= ?)
               AND (o.status <> 'RETRY_SCHEDULED' OR o.next_eligible_at IS NULL OR o.next_eligible_at <= ?)
               AND o.redrive_command_id IS NOT DISTINCT FROM r.command_id
               AND (r.command_id IS NULL OR EXISTS (
                       SELECT 1 FROM redrive_commands c
                        WHERE c.command_id = r.command_id AND c.status IN ('ISSUED', 'EXECUTING')
                          AND c.to_attempt = r.attempt AND o.attempt = r.attempt))
            RETURNING o.operation_id, o.attempt, o.fencing_token, o.redrive_command_id
            """;

    private static final String COMMAND_EXECUTING = """
            UPDATE redrive_commands SET status = 'EXECUTING', executed_at = ?
             WHERE command_id = ANY (?::text[]::uuid[]) AND status = 'ISSUED'
            """;

    /* One statement finishes a whole group of attempts; a row whose fencing token moved on is simply not returned. */
    private static final String FINISH = """
            UPDATE operations o
               SET status = v.status, attempt = v.attempt, result = COALESCE(v.result, o.result),
                   side_effect = v.side_effect, last_error_class = v.last_error_class,
                   next_eligible_at = v.next_eligible_at, redrive_command_id = v.command_id, lease_owner = NULL,
                   lease_delivery_id = NULL, lease_expires_at = NULL, updated_at = v.finished_at
              FROM unnest(?::text[], ?::text[]::bigint[], ?::text[], ?::text[]::int[], ?::text[]::jsonb[], ?::text[],
                          ?::text[], ?::text[]::timestamptz[], ?::text[]::uuid[], ?::text[]::timestamptz[])
                       AS v(operation_id, fencing_token, status, attempt, result, side_effect, last_error_class,
                            next_eligible_at, command_id, finished_at)
             WHERE o.operation_id = v.operation_id AND o.fencing_token = v.fencing_token AND o.status = 'RUNNING'
            RETURNING o.operation_id
            """;

    private static final String INSERT_ATTEMPT = """
            INSERT INTO attempts (operation_id, attempt, delivery_id, delivery_count, consumer, fencing_token,
                                  redrive_command_id, started_at, finished_at, outcome, error_class, error_code,
                                  error_message, retry_after_ms, next_eligible_at, side_effect)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;

    private static final String INSERT_RECONCILIATION = """
            INSERT INTO reconciliations (operation_id, outcome, source, evidence, result, recorded_by, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """;

    private static final String COMMAND_DONE = """
            UPDATE redrive_commands SET status = ?, completed_at = ?
             WHERE command_id = ? AND status = 'EXECUTING'
            """;

    private static final String RELEASE = """
            UPDATE operations SET lease_expires_at = ?, updated_at = ?
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

    private static final String INSERT_AUDIT = """
            INSERT INTO audit_log (at, actor, action, operation_id, command_id, reason, details)
            VALUES (?, 'worker', 'dispatch_discarded', ?, ?, ?, ?)
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
     * swept_at let concurrent sweeps share the work and re-publish each at most once per grace period.
     */
    private static final String SWEEP = """
            WITH stranded AS (
                SELECT operation_id FROM operations
                 WHERE ((status = 'PENDING' AND updated_at < ?)
                        OR (status = 'RETRY_SCHEDULED' AND next_eligible_at < ?)
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

    private final Jdbc jdbc;
    private final DeadLetterStore deadLetters;

    public OperationStore(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.deadLetters = new DeadLetterStore(jdbc);
    }

    /** The records of the given operations with their run's status, in one query; unknown ids are absent. */
    public Map<String, OperationRecord> load(Collection<String> operationIds) {
        Map<String, OperationRecord> records = new LinkedHashMap<>();
        if (operationIds.isEmpty()) {
            return records;
        }
        for (OperationRecord record : jdbc.query(LOAD, OperationStore::record, (Object) operationIds.toArray(String[]::new))) {
            records.put(record.operationId(), record);
        }
        return records;
    }

    /**
     * Claims leases for a batch in one statement that bumps each fencing token. Requests that lost (another worker
     * holds a live lease, the run ended, the command is not valid any more, ...) are simply absent from the answer.
     * Claimed redrive commands become EXECUTING in the same transaction.
     */
    public List<Lease> claim(List<ClaimRequest> requests, String owner, Instant now, Duration leaseDuration) {
        if (requests.isEmpty()) {
            return List.of();
        }
        Map<String, ClaimRequest> byOperation = new LinkedHashMap<>();
        for (ClaimRequest request : requests) {
            if (byOperation.putIfAbsent(request.operationId(), request) != null) {
                throw new IllegalArgumentException("one claim per operation per batch, twice: " + request.operationId());
            }
        }
        Instant expiresAt = now.plus(leaseDuration);
        String[] ids = byOperation.keySet().toArray(String[]::new);
        String[] attempts = requests.stream().map(r -> Integer.toString(r.attempt())).toArray(String[]::new);
        String[] deliveries = requests.stream().map(ClaimRequest::deliveryId).toArray(String[]::new);
        String[] commands = requests.stream().map(r -> r.redriveCommandId() == null ? null : r.redriveCommandId().toString())
                .toArray(String[]::new);
        return jdbc.inTransaction(() -> {
            List<Lease> leases = jdbc.query(CLAIM,
                    row -> new Lease(row.getString("operation_id"), row.getInt("attempt"), owner,
                            row.getLong("fencing_token"), now, expiresAt,
                            row.getObject("redrive_command_id", UUID.class),
                            byOperation.get(row.getString("operation_id")).takeover()),
                    owner, expiresAt, now, ids, attempts, deliveries, commands,
                    OperationStatus.allowedBefore(OperationStatus.RUNNING), now, now);
            String[] claimedCommands = leases.stream().filter(lease -> lease.redriveCommandId() != null)
                    .map(lease -> lease.redriveCommandId().toString()).toArray(String[]::new);
            if (claimedCommands.length > 0) {
                jdbc.update(COMMAND_EXECUTING, now, claimedCommands);
            }
            return leases;
        });
    }

    /**
     * Commits finished attempts in one transaction. Each commit is guarded by its fencing token: a worker whose lease
     * was taken over gets {@code committed = false} for that operation and writes nothing for it. Status changes and
     * attempt rows go as one JDBC batch each.
     */
    public List<CommitResult> commit(List<AttemptCommit> commits) {
        if (commits.isEmpty()) {
            return List.of();
        }
        return jdbc.inTransaction(() -> {
            Set<String> finished = new HashSet<>(jdbc.query(FINISH, row -> row.getString(1), finishParameters(commits)));
            List<AttemptCommit> committed = commits.stream()
                    .filter(commit -> finished.contains(commit.lease().operationId())).toList();
            jdbc.batch(INSERT_ATTEMPT, committed.stream().map(OperationStore::attemptParameters).toList());
            jdbc.batch(INSERT_RECONCILIATION, committed.stream().filter(commit -> commit.reconciliation() != null)
                    .map(OperationStore::reconciliationParameters).toList());
            List<CommitResult> results = new ArrayList<>(commits.size());
            for (AttemptCommit commit : commits) {
                boolean done = finished.contains(commit.lease().operationId());
                results.add(new CommitResult(commit, done, done ? afterFinish(commit) : null));
            }
            return results;
        });
    }

    /** The FINISH statement's columns, one array each, one element per commit. */
    private static Object[] finishParameters(List<AttemptCommit> commits) {
        int n = commits.size();
        String[][] columns = new String[10][n];
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < n; i++) {
            AttemptCommit commit = commits.get(i);
            Lease lease = commit.lease();
            if (!seen.add(lease.operationId())) {
                throw new IllegalArgumentException("one commit per operation per group, twice: " + lease.operationId());
            }
            OperationStatus outcome = commit.outcome();
            boolean retry = outcome == OperationStatus.RETRY_SCHEDULED;
            UUID keptCommand = retry ? null : lease.redriveCommandId();
            FailureClass errorClass = commit.error() == null || outcome == OperationStatus.SUCCEEDED
                    ? null : commit.error().failureClass();
            columns[0][i] = lease.operationId();
            columns[1][i] = Long.toString(lease.fencingToken());
            columns[2][i] = outcome.name();
            columns[3][i] = Integer.toString(retry ? lease.attempt() + 1 : lease.attempt());
            columns[4][i] = commit.result();
            columns[5][i] = commit.sideEffect().name();
            columns[6][i] = errorClass == null ? null : errorClass.name();
            columns[7][i] = commit.nextEligibleAt() == null ? null : commit.nextEligibleAt().toString();
            columns[8][i] = keptCommand == null ? null : keptCommand.toString();
            columns[9][i] = commit.finishedAt().toString();
        }
        return columns;
    }

    /** What a committed attempt changes beyond its operation row: its redrive command and its DLQ entry. */
    private DeadLetterEvent afterFinish(AttemptCommit commit) {
        Lease lease = commit.lease();
        if (lease.redriveCommandId() != null) {
            jdbc.update(COMMAND_DONE, commit.outcome() == OperationStatus.SUCCEEDED ? "SUCCEEDED" : "FAILED",
                    commit.finishedAt(), lease.redriveCommandId());
        }
        return commit.outcome() == OperationStatus.DEAD_LETTERED ? deadLetters.enterForOperation(commit) : null;
    }

    private static Object[] attemptParameters(AttemptCommit commit) {
        Lease lease = commit.lease();
        DeliveryInfo delivery = commit.delivery();
        AttemptError error = commit.error();
        return new Object[]{lease.operationId(), lease.attempt(),
                delivery == null ? null : delivery.entryId(),
                delivery == null ? null : (int) delivery.deliveryCount(),
                lease.owner(), lease.fencingToken(), lease.redriveCommandId(), lease.claimedAt(), commit.finishedAt(),
                commit.outcome().name(),
                error == null ? null : error.failureClass().name(),
                error == null ? null : error.code(),
                error == null ? null : error.message(),
                commit.retryAfter() == null ? null : commit.retryAfter().toMillis(),
                commit.nextEligibleAt(), commit.sideEffect().name()};
    }

    private static Object[] reconciliationParameters(AttemptCommit commit) {
        ReconciliationRecord r = commit.reconciliation();
        return new Object[]{commit.lease().operationId(), r.outcome(), r.source(), r.evidence(), Json.of(r.result()),
                r.recordedBy(), commit.finishedAt()};
    }

    /**
     * Gives a lease up early (the handler crashed, or the worker is shutting down) so that the next delivery can claim
     * the operation at once. Refused, and false, when the fencing token no longer matches.
     */
    public boolean release(Lease lease, Instant now) {
        return checkSingleRow(jdbc.update(RELEASE, now, now, lease.operationId(), lease.fencingToken()),
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
            for (Deferral deferral : deferrals) {
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
    public void recordDiscards(List<Discard> discards, Instant now) {
        if (discards.isEmpty()) {
            return;
        }
        jdbc.inTransaction(() -> {
            List<Object[]> audit = new ArrayList<>(discards.size());
            for (Discard discard : discards) {
                audit.add(new Object[]{now, discard.operationId(), discard.commandId(), discard.reason(),
                        new Json(json(discard.details()))});
                if (discard.cancelOperation() && discard.operationId() != null) {
                    jdbc.update(CANCEL_OPERATION, now, discard.operationId(),
                            OperationStatus.allowedBefore(OperationStatus.CANCELLED), now);
                }
                if (discard.failCommand() && discard.commandId() != null) {
                    jdbc.update(FAIL_COMMAND, now, discard.commandId());
                }
            }
            jdbc.batch(INSERT_AUDIT, audit);
        });
    }

    /**
     * Takes up to {@code limit} operations that have waited longer than {@code grace} for a worker (Redis may have
     * lost their dispatch) and marks them swept, so that they are re-published once per grace period.
     */
    public List<OperationRecord> sweepStranded(Instant now, Duration grace, int limit) {
        Instant before = now.minus(grace);
        List<String> ids = jdbc.query(SWEEP, row -> row.getString(1), before, before, before, before, limit, now);
        return new ArrayList<>(load(ids).values());
    }

    private static int checkSingleRow(int updated, String operationId) {
        if (updated > 1) {
            throw new StoreException("one operation row expected, " + updated + " changed for " + operationId);
        }
        return updated;
    }

    static String json(Map<String, ?> value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not representable as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static OperationRecord record(ResultSet row) throws SQLException {
        String lastErrorClass = row.getString("last_error_class");
        return new OperationRecord(
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
                Jdbc.instant(row, "updated_at"));
    }
}
