package dev.redrive.store.operation;

import dev.redrive.model.OperationStatus;
import dev.redrive.store.Jdbc;
import dev.redrive.store.UnnestedRows;
import dev.redrive.store.deadletter.DeadLetterEvent;
import dev.redrive.store.deadletter.DeadLetterStore;
import dev.redrive.store.deadletter.OperationDeadLetter;
import dev.redrive.store.reconciliation.ReconciliationLog;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What finished attempts write: each operation's new status with its attempt row, in one statement for a whole group
 * of attempts, and, in the same transaction where there are any, the reconciliations they recorded, the redrive
 * commands they settled and the DLQ entries they entered. Rows are locked in the order {@link OperationStore}'s LOCK
 * ORDER gives, since a group commit and another worker's batch claim often name the same operations.
 */
public final class AttemptCommits {
    /*
     * One statement finishes a whole group of attempts and writes their attempt rows; a row whose fencing token moved on
     * is neither finished nor given an attempt row, and is not returned. Settling resets the processing deliveries.
     * The rows are locked first, in operation_id order (see LOCK ORDER in OperationStore), and the guard is checked again on a row
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

    private final Jdbc jdbc;
    private final DeadLetterStore deadLetters;
    private final ReconciliationLog reconciliations;

    public AttemptCommits(Jdbc jdbc) {
        this.jdbc = jdbc;
        this.deadLetters = new DeadLetterStore(jdbc);
        this.reconciliations = new ReconciliationLog(jdbc);
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
}
