package dev.redrive.store.operation;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.OperationParameters;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;

import java.util.Optional;

/**
 * Records runs and operations the first time a dispatch names them. Both the publishing side (before it writes to
 * Redis) and the worker (for a dispatch another runtime published straight to Redis) record through here, so the
 * first writer wins. A later dispatch of the same operation must carry the same parameters, and an idempotency key
 * belongs to one operation: anything else is a conflict, never a silent replay of the first request's result.
 */
public final class OperationRegistry {
    private static final String INSERT_RUN = """
            INSERT INTO runs (run_id) VALUES (?)
            ON CONFLICT (run_id) DO NOTHING
            """;

    /* No conflict target: a taken operation id and a taken idempotency key (both unique) are both "not inserted". */
    private static final String INSERT_OPERATION = """
            INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                    tool_schema_version, idempotency_key, payload, approval_id, trace_id,
                                    correlation_id, runtime_version, next_eligible_at, last_error_class,
                                    dispatched_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """;

    private static final String STORED = """
            SELECT tool, tool_schema_version, idempotency_key, payload::text FROM operations WHERE operation_id = ?
            """;

    private static final String KEY_OWNER = "SELECT operation_id FROM operations WHERE idempotency_key = ?";

    private final Jdbc jdbc;

    public OperationRegistry(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    private record Stored(String tool, String schemaVersion, String idempotencyKey, String payload) {
    }

    /**
     * Records the run and the operation if they are not known yet, in one transaction; otherwise compares the
     * dispatch with what is recorded.
     *
     * @param status PENDING for a first dispatch, RETRY_SCHEDULED for one that is due later
     */
    public Recorded record(DispatchEnvelope envelope, OperationStatus status) {
        return jdbc.inTransaction(() -> {
            jdbc.update(INSERT_RUN, envelope.runId());
            String operationId = envelope.operationId().value();
            int inserted = jdbc.update(INSERT_OPERATION,
                    operationId, envelope.runId(), envelope.nodeId(), envelope.logicalAttempt(),
                    status, envelope.attempt(), envelope.tool(), envelope.toolSchemaVersion(),
                    envelope.idempotencyKey(), new Json(envelope.payload()), envelope.approvalId(),
                    envelope.traceId(), envelope.correlationId(), envelope.runtimeVersion(),
                    envelope.nextEligibleAt(), envelope.lastErrorClass(), envelope.dispatchedAt());
            if (inserted == 1) {
                return Recorded.created();
            }
            Optional<Stored> stored = jdbc.queryOne(STORED, row -> new Stored(row.getString(1), row.getString(2),
                    row.getString(3), row.getString(4)), operationId);
            if (stored.isEmpty()) {
                String owner = jdbc.queryOne(KEY_OWNER, row -> row.getString(1), envelope.idempotencyKey()).orElse("?");
                return Recorded.conflict("idempotency key " + envelope.idempotencyKey() + " is already bound to operation "
                        + owner + ", not to " + operationId);
            }
            return compare(envelope, stored.get());
        });
    }

    private static Recorded compare(DispatchEnvelope envelope, Stored stored) {
        String conflict = OperationParameters.conflict(envelope, stored.tool(), stored.idempotencyKey(),
                stored.payload(), stored.schemaVersion(), true);
        return conflict == null ? Recorded.alreadyRecorded() : Recorded.conflict(conflict);
    }
}
