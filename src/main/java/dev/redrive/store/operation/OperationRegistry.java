package dev.redrive.store.operation;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.OperationParameters;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Jdbc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Records runs and operations the first time a dispatch names them. Both the publishing side (before it writes to
 * Redis) and the worker (for a dispatch another runtime published straight to Redis) record through here, so the
 * first writer wins. A later dispatch of the same operation must carry the same parameters, and an idempotency key
 * belongs to one operation: anything else is a conflict, never a silent replay of the first request's result.
 */
public final class OperationRegistry {
    private static final String INSERT_RUNS = """
            INSERT INTO runs (run_id) SELECT DISTINCT unnest(?::text[])
            ON CONFLICT (run_id) DO NOTHING
            """;

    private static final String INSERT_OPERATIONS = """
            INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                    tool_schema_version, idempotency_key, payload, approval_id, trace_id,
                                    correlation_id, runtime_version, next_eligible_at, last_error_class,
                                    dispatched_at, traceparent)
            SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]::int[], ?::text[], ?::text[]::int[],
                                 ?::text[], ?::text[], ?::text[], ?::text[]::jsonb[], ?::text[], ?::text[], ?::text[],
                                 ?::text[], ?::text[]::timestamptz[], ?::text[], ?::text[]::timestamptz[], ?::text[])
            ON CONFLICT DO NOTHING
            RETURNING operation_id
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
            String operationId = envelope.operationId().value();
            if (insert(List.of(envelope), any -> status).contains(operationId)) {
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

    /**
     * Records many first dispatches in one transaction of two statements (the runs, then the operations), as
     * {@link #record} would one by one; those already recorded are compared one by one. An operation named more than
     * once is created by its first dispatch; each later one is compared with it like any repeat, so the same
     * parameters again are a repeat and other parameters a conflict.
     *
     * @param statusOf PENDING for a dispatch to run now, RETRY_SCHEDULED for one due later
     * @return what recording each dispatch found, in the order of {@code envelopes}
     */
    public List<Recorded> recordAll(List<DispatchEnvelope> envelopes,
                                    Function<DispatchEnvelope, OperationStatus> statusOf) {
        if (envelopes.isEmpty()) {
            return List.of();
        }
        Set<String> created = jdbc.inTransaction(() -> insert(envelopes, statusOf));
        List<Recorded> recorded = new ArrayList<>(envelopes.size());
        for (DispatchEnvelope envelope : envelopes) {
            // Removed on first sight: the operation's next dispatch in the list is compared with what this one created.
            recorded.add(created.remove(envelope.operationId().value()) ? Recorded.created()
                    : record(envelope, statusOf.apply(envelope)));
        }
        return recorded;
    }

    /** Inserts the runs, then the operations not recorded yet; returns the ids of the operations it inserted. */
    private Set<String> insert(List<DispatchEnvelope> envelopes, Function<DispatchEnvelope, OperationStatus> statusOf) {
        jdbc.update(INSERT_RUNS, (Object) envelopes.stream().map(DispatchEnvelope::runId).toArray(String[]::new));
        return new HashSet<>(jdbc.query(INSERT_OPERATIONS, row -> row.getString(1), columns(envelopes, statusOf)));
    }

    private static Object[] columns(List<DispatchEnvelope> envelopes, Function<DispatchEnvelope, OperationStatus> statusOf) {
        int n = envelopes.size();
        String[][] columns = new String[18][n];
        for (int i = 0; i < n; i++) {
            DispatchEnvelope e = envelopes.get(i);
            columns[0][i] = e.operationId().value();
            columns[1][i] = e.runId();
            columns[2][i] = e.nodeId();
            columns[3][i] = Integer.toString(e.logicalAttempt());
            columns[4][i] = statusOf.apply(e).name();
            columns[5][i] = Integer.toString(e.attempt());
            columns[6][i] = e.tool();
            columns[7][i] = e.toolSchemaVersion();
            columns[8][i] = e.idempotencyKey();
            columns[9][i] = e.payload();
            columns[10][i] = e.approvalId();
            columns[11][i] = e.traceId();
            columns[12][i] = e.correlationId();
            columns[13][i] = e.runtimeVersion();
            columns[14][i] = e.nextEligibleAt() == null ? null : e.nextEligibleAt().toString();
            columns[15][i] = e.lastErrorClass() == null ? null : e.lastErrorClass().name();
            columns[16][i] = e.dispatchedAt().toString();
            columns[17][i] = e.traceparent();
        }
        return columns;
    }

    private static Recorded compare(DispatchEnvelope envelope, Stored stored) {
        String conflict = OperationParameters.conflict(envelope, stored.tool(), stored.idempotencyKey(),
                stored.payload(), stored.schemaVersion(), true);
        return conflict == null ? Recorded.alreadyRecorded() : Recorded.conflict(conflict);
    }
}
