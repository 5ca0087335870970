package dev.redrive.triage;

import dev.redrive.broker.StreamKeys;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.Jdbc.Json;

import java.time.Duration;
import java.time.Instant;

/**
 * Writes dead-lettered operations the way the worker leaves them (run, operation, attempts, DLQ entry with its
 * evidence), plus the tool schemas and approvals the preconditions look at. SQL only: tests do not need a worker.
 */
public final class DeadLetterFixture {
    private final Jdbc jdbc;
    private final String namespace;

    public DeadLetterFixture(Database database) {
        this.jdbc = database.jdbc();
        this.namespace = database.schema();
    }

    /**
     * A fixture on {@code database} with {@code demo.charge} version 1 registered as current: the tool and version its
     * entries name unless told otherwise, so that a redrive of one passes the schema check.
     */
    public static DeadLetterFixture withChargeTool(Database database) {
        DeadLetterFixture fixture = new DeadLetterFixture(database);
        fixture.toolSchema("demo.charge", "1");
        return fixture;
    }

    public record Created(String operationId, long dlqEntryId, String idempotencyKey, int attempt) {
    }

    public Builder deadLettered(String runId, String nodeId) {
        return new Builder(new OperationId(runId, nodeId, 0));
    }

    public void toolSchema(String tool, String version) {
        jdbc.inTransaction(() -> {
            jdbc.update("UPDATE tool_schemas SET is_current = false WHERE tool = ? AND is_current AND version <> ?", tool, version);
            jdbc.update("""
                    INSERT INTO tool_schemas (tool, version, is_current, registered_by) VALUES (?, ?, true, 'fixture')
                    ON CONFLICT (tool, version) DO UPDATE SET is_current = true""", tool, version);
        });
    }

    public void approval(String approvalId, Instant expiresAt) {
        jdbc.update("INSERT INTO approvals (approval_id, scope, granted_by, expires_at) VALUES (?, 'demo.charge', 'carol', ?)",
                approvalId, expiresAt);
    }

    public void revokeApproval(String approvalId) {
        jdbc.update("UPDATE approvals SET revoked_at = now(), revoked_by = 'carol', revoke_reason = 'card reported stolen' WHERE approval_id = ?",
                approvalId);
    }

    public void cancelRun(String runId) {
        jdbc.update("UPDATE runs SET status = 'CANCELLED', status_reason = 'customer cancelled the order' WHERE run_id = ?", runId);
    }

    public final class Builder {
        private final OperationId id;
        private String tool = "demo.charge";
        private String schemaVersion = "1";
        private FailureClass errorClass = FailureClass.TRANSIENT;
        private SideEffectState sideEffect = SideEffectState.NONE;
        private int attempts = 3;
        private String approvalId;
        private String message = "internal error from demo.charge";
        private String fingerprint = "fp-transient";
        private Instant enteredAt = Instant.parse("2026-11-29T10:00:00Z");
        private String traceId;
        private String correlationId;
        private String payload = "{\"amount\":10,\"currency\":\"EUR\",\"card_number\":\"4111 1111 1111 1111\",\"note\":\"gift\"}";

        private Builder(OperationId id) {
            this.id = id;
            this.traceId = "trace-" + id.nodeId();
            this.correlationId = "corr-" + id.runId();
        }

        public Builder tool(String value) { tool = value; return this; }
        public Builder schemaVersion(String value) { schemaVersion = value; return this; }
        public Builder errorClass(FailureClass value) { errorClass = value; return this; }
        public Builder sideEffect(SideEffectState value) { sideEffect = value; return this; }
        public Builder attempts(int value) { attempts = value; return this; }
        public Builder approvalId(String value) { approvalId = value; return this; }
        public Builder message(String value) { message = value; return this; }
        public Builder fingerprint(String value) { fingerprint = value; return this; }
        public Builder enteredAt(Instant value) { enteredAt = value; return this; }
        public Builder traceId(String value) { traceId = value; return this; }
        public Builder correlationId(String value) { correlationId = value; return this; }
        public Builder payload(String value) { payload = value; return this; }

        public Created create() {
            String operationId = id.value();
            String key = id.idempotencyKey();
            long entryId = jdbc.inTransaction(() -> {
                jdbc.update("INSERT INTO runs (run_id) VALUES (?) ON CONFLICT DO NOTHING", id.runId());
                jdbc.update("""
                        INSERT INTO operations (operation_id, run_id, node_id, logical_attempt, status, attempt, tool,
                                                tool_schema_version, idempotency_key, payload, approval_id, trace_id,
                                                correlation_id, runtime_version, side_effect, last_error_class,
                                                dispatched_at)
                        VALUES (?, ?, ?, 0, 'DEAD_LETTERED', ?, ?, ?, ?, ?, ?, ?, ?, 'redrive-java/test', ?, ?, ?)""",
                        operationId, id.runId(), id.nodeId(), attempts, tool, schemaVersion, key, new Json(payload),
                        approvalId, traceId, correlationId, sideEffect, errorClass, enteredAt.minus(Duration.ofMinutes(5)));
                for (int attempt = 1; attempt <= attempts; attempt++) {
                    boolean last = attempt == attempts;
                    Instant finished = enteredAt.minusSeconds(30L * (attempts - attempt));
                    jdbc.update("""
                            INSERT INTO attempts (operation_id, attempt, delivery_id, delivery_count, consumer,
                                                  fencing_token, started_at, finished_at, outcome, error_class,
                                                  error_code, error_message, next_eligible_at, side_effect)
                            VALUES (?, ?, ?, 1, 'worker-1', ?, ?, ?, ?, ?, '500', ?, ?, ?)""",
                            operationId, attempt, (1_700_000_000_000L + attempt) + "-0", attempt,
                            finished.minusSeconds(2), finished, last ? "DEAD_LETTERED" : "RETRY_SCHEDULED",
                            errorClass, message, last ? null : finished.plusSeconds(30),
                            last ? sideEffect : SideEffectState.NONE);
                }
                return jdbc.queryLong("""
                        INSERT INTO dlq_entries (dedup_key, operation_id, run_id, node_id, logical_attempt, attempt, tool,
                                                 tool_schema_version, idempotency_key, approval_id, trace_id,
                                                 correlation_id, runtime_version, stream, entry_id, delivery_count,
                                                 consumer, error_class, error_code, error_message, error_fingerprint,
                                                 side_effect, attempt_history, raw_message, payload, entered_at)
                        VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, 'redrive-java/test', ?, '1700000000003-0', 1,
                                'worker-1', ?, '500', ?, ?, ?,
                                (SELECT jsonb_agg(jsonb_build_object('attempt', attempt, 'outcome', outcome,
                                                                     'error_class', error_class,
                                                                     'error_message', error_message,
                                                                     'started_at', started_at,
                                                                     'finished_at', finished_at) ORDER BY attempt)
                                 FROM attempts WHERE operation_id = ?),
                                jsonb_build_object('operation_id', ?::text, 'payload', ?::text), ?, ?)
                        RETURNING id""",
                        "op:" + operationId + ":" + attempts, operationId, id.runId(), id.nodeId(), attempts, tool,
                        schemaVersion, key, approvalId, traceId, correlationId, new StreamKeys(namespace).dispatch(), errorClass,
                        message, fingerprint, sideEffect, operationId, operationId, payload, new Json(payload), enteredAt);
            });
            return new Created(operationId, entryId, key, attempts);
        }
    }
}
