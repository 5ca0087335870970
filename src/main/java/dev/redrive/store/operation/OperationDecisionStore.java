package dev.redrive.store.operation;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Jdbc.Json;
import dev.redrive.store.Jdbc;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What an operator's decision changes on a dead-lettered operation's row. Each change is one statement guarded by the
 * status (and attempt) it starts from, checked against the {@link OperationStatus} table; each returns the number of
 * rows changed, 0 when someone changed the row first. Runs inside the decision's transaction.
 */
public final class OperationDecisionStore {
    private static final String TO_PENDING = """
            UPDATE operations
               SET status = 'PENDING', attempt = attempt + 1, redrive_command_id = ?, tool_schema_version = ?,
                   next_eligible_at = NULL, lease_owner = NULL, lease_expires_at = NULL, dispatched_at = ?,
                   updated_at = ?
             WHERE operation_id = ? AND status = ? AND attempt = ?""";

    private static final String TO_SUCCEEDED = """
            UPDATE operations SET status = 'SUCCEEDED', result = ?, updated_at = ?
             WHERE operation_id = ? AND status = ?""";

    private static final String TO_DISCARDED = """
            UPDATE operations SET status = 'DISCARDED', updated_at = ?
             WHERE operation_id = ? AND status = ?""";

    // A pending retry given up or resolved: guarded by the attempt, so a retry that started meanwhile is never touched.
    private static final String CANCEL_RETRY = """
            UPDATE operations SET status = ?, result = coalesce(?, result), next_eligible_at = NULL, updated_at = ?
             WHERE operation_id = ? AND status = ? AND attempt = ?""";

    private static final String TO_SUPERSEDED = """
            UPDATE operations SET status = 'SUPERSEDED', updated_at = ?
             WHERE operation_id = ? AND status = ?""";

    private static final String INSERT_CORRECTION = """
            INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                    tool_schema_version, idempotency_key, payload, approval_id, trace_id,
                                    correlation_id, runtime_version, redrive_command_id, dispatched_at, traceparent,
                                    corrects, created_at, updated_at)
            VALUES (?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    private static final String HIGHEST_LOGICAL_ATTEMPT =
            "SELECT max(logical_attempt) FROM operations WHERE run_id = ? AND node_id = ?";

    // A reconciliation that found the effect not applied is the look-up the next call waits for (LastCall).
    private static final String SETTLE_SIDE_EFFECT = """
            UPDATE operations
               SET side_effect = ?, updated_at = ?,
                   last_call = CASE WHEN side_effect_settled THEN 'NONE' ELSE last_call END
              FROM (SELECT ?::text = 'NOT_APPLIED' AS side_effect_settled) AS s
             WHERE operation_id = ? AND status = ?""";

    // The same moves for a chunk of a batch, one statement each.
    private static final String ALL_TO_PENDING = """
            UPDATE operations o
               SET status = 'PENDING', attempt = o.attempt + 1, redrive_command_id = v.command_id,
                   tool_schema_version = v.target_schema_version, next_eligible_at = NULL, lease_owner = NULL,
                   lease_expires_at = NULL, dispatched_at = ?, updated_at = ?
              FROM unnest(?::text[], ?::text[]::uuid[], ?::text[], ?::text[]::int[])
                   AS v(operation_id, command_id, target_schema_version, from_attempt)
             WHERE o.operation_id = v.operation_id AND o.status = ? AND o.attempt = v.from_attempt""";

    private static final String ALL_TO_SUCCEEDED = """
            UPDATE operations o SET status = 'SUCCEEDED', result = v.result, updated_at = ?
              FROM unnest(?::text[], ?::text[]::jsonb[]) AS v(operation_id, result)
             WHERE o.operation_id = v.operation_id AND o.status = ?""";

    private static final String ALL_TO_DISCARDED = """
            UPDATE operations SET status = 'DISCARDED', updated_at = ?
             WHERE operation_id = ANY (?) AND status = ?""";

    private final Jdbc jdbc;

    /**
     * One operation of a redrive chunk: from {@code fromAttempt} to the next under {@code commandId}, with
     * {@code schemaVersion}; {@code preconditions} is the JSON text the command keeps.
     */
    public record RedriveMove(UUID commandId, String operationId, long entryId, int fromAttempt, String schemaVersion,
                              String preconditions) {
    }

    public OperationDecisionStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** A redrive: the next attempt waits for a worker, under the command that carries it. */
    public int redrive(String operationId, int fromAttempt, UUID commandId, String schemaVersion, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.PENDING);
        return jdbc.update(TO_PENDING, commandId, schemaVersion, at, at, operationId, OperationStatus.DEAD_LETTERED,
                fromAttempt);
    }

    /** A resolve: succeeded with the reconciled result (JSON text, may be null); never run again. */
    public int resolve(String operationId, String result, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.SUCCEEDED);
        return jdbc.update(TO_SUCCEEDED, Json.of(result), at, operationId, OperationStatus.DEAD_LETTERED);
    }

    public int discard(String operationId, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.DISCARDED);
        return jdbc.update(TO_DISCARDED, at, operationId, OperationStatus.DEAD_LETTERED);
    }

    /**
     * Cancels the retry scheduled for {@code attempt}: the operation becomes {@code to} (DISCARDED, or SUCCEEDED with
     * {@code result}, JSON text) and its retry, when delivered, is acked without running. Returns the rows changed.
     */
    public int cancelRetry(String operationId, int attempt, OperationStatus to, String result, Instant at) {
        OperationStatus.RETRY_SCHEDULED.checkTransition(to);
        return jdbc.update(CANCEL_RETRY, to, Json.of(result), at, operationId, OperationStatus.RETRY_SCHEDULED, attempt);
    }

    /** A correction replaced it: never run again. */
    public int supersede(String operationId, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.SUPERSEDED);
        return jdbc.update(TO_SUPERSEDED, at, operationId, OperationStatus.DEAD_LETTERED);
    }

    /** The highest logical attempt recorded for a node of a run: a correction takes the next one. */
    public int highestLogicalAttempt(String runId, String nodeId) {
        return (int) jdbc.queryLong(HIGHEST_LOGICAL_ATTEMPT, runId, nodeId);
    }

    /**
     * Records a correction as an operation awaiting its redrive command; the unique {@code corrects} column lets one
     * correction in per original, whoever comes second.
     */
    public void insertCorrection(DispatchEnvelope correction, String corrects) {
        jdbc.update(INSERT_CORRECTION, correction.operationId().value(), correction.runId(), correction.nodeId(),
                correction.logicalAttempt(), correction.attempt(), correction.tool(), correction.toolSchemaVersion(),
                correction.idempotencyKey(), new Json(correction.payload()), correction.approvalId(),
                correction.traceId(), correction.correlationId(), correction.runtimeVersion(),
                UUID.fromString(correction.redriveCommandId()), correction.dispatchedAt(), correction.traceparent(),
                corrects, correction.dispatchedAt(), correction.dispatchedAt());
    }

    /** {@link #redrive} for a chunk; returns the rows changed. */
    public int redriveAll(List<RedriveMove> moves, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.PENDING);
        return jdbc.update(ALL_TO_PENDING, at, at,
                moves.stream().map(RedriveMove::operationId).toArray(String[]::new),
                moves.stream().map(move -> move.commandId().toString()).toArray(String[]::new),
                moves.stream().map(RedriveMove::schemaVersion).toArray(String[]::new),
                moves.stream().map(move -> Integer.toString(move.fromAttempt())).toArray(String[]::new),
                OperationStatus.DEAD_LETTERED);
    }

    /** {@link #resolve} for a chunk: operation id to its result (JSON text, may be null); returns the rows changed. */
    public int resolveAll(Map<String, String> resultByOperation, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.SUCCEEDED);
        return jdbc.update(ALL_TO_SUCCEEDED, at, resultByOperation.keySet().toArray(String[]::new),
                resultByOperation.values().toArray(String[]::new), OperationStatus.DEAD_LETTERED);
    }

    /** {@link #discard} for a chunk; returns the rows changed. */
    public int discardAll(Collection<String> operationIds, Instant at) {
        OperationStatus.DEAD_LETTERED.checkTransition(OperationStatus.DISCARDED);
        return jdbc.update(ALL_TO_DISCARDED, at, operationIds.toArray(String[]::new), OperationStatus.DEAD_LETTERED);
    }

    /** Records a reconciled side effect on an operation that is still dead-lettered. */
    public int settleSideEffect(String operationId, SideEffectState state, Instant at) {
        return jdbc.update(SETTLE_SIDE_EFFECT, state, at, state, operationId, OperationStatus.DEAD_LETTERED);
    }
}
