package dev.redrive.store.operation;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;

/**
 * Records runs and operations the first time a dispatch names them. Both the publishing side (before it writes to
 * Redis) and the worker (for a dispatch another runtime published straight to Redis) record through here, so the
 * first writer wins and later sightings change nothing.
 */
public final class OperationRegistry {
    private static final String INSERT_RUN = """
            INSERT INTO runs (run_id) VALUES (?)
            ON CONFLICT (run_id) DO NOTHING
            """;

    private static final String INSERT_OPERATION = """
            INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                    tool_schema_version, idempotency_key, payload, approval_id, trace_id,
                                    correlation_id, runtime_version, next_eligible_at, last_error_class,
                                    dispatched_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (operation_id) DO NOTHING
            """;

    private final Jdbc jdbc;

    public OperationRegistry(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Records the run and the operation if they are not known yet, in one transaction.
     *
     * @param status PENDING for a first dispatch, RETRY_SCHEDULED for one that is due later
     * @return true when this call created the operation record
     */
    public boolean recordIfAbsent(DispatchEnvelope envelope, OperationStatus status) {
        return jdbc.inTransaction(() -> {
            jdbc.update(INSERT_RUN, envelope.runId());
            return jdbc.update(INSERT_OPERATION,
                    envelope.operationId().value(), envelope.runId(), envelope.nodeId(), envelope.logicalAttempt(),
                    status, envelope.attempt(), envelope.tool(), envelope.toolSchemaVersion(),
                    envelope.idempotencyKey(), new Json(envelope.payload()), envelope.approvalId(),
                    envelope.traceId(), envelope.correlationId(), envelope.runtimeVersion(),
                    envelope.nextEligibleAt(), envelope.lastErrorClass(), envelope.dispatchedAt()) == 1;
        });
    }
}
