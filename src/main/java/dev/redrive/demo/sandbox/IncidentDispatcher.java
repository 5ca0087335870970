package dev.redrive.demo.sandbox;

import dev.redrive.broker.Redis;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.worker.client.WorkerClient;
import io.lettuce.core.XAddArgs;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Publishes the incident's work the way a workflow runtime would: through {@link WorkerClient}, runs interleaved as
 * they would be on a busy night, plus two malformed dispatches written straight to the stream by "another runtime".
 */
final class IncidentDispatcher {
    private final WorkerClient client;
    private final Redis redis;
    private final Clock clock;
    private final EnvelopeCodec codec = new EnvelopeCodec();

    IncidentDispatcher(Database database, Redis redis, Clock clock) {
        this.client = new WorkerClient(database, redis, clock);
        this.redis = redis;
        this.clock = clock;
    }

    /** Dispatches every planned operation, taking one from each run in turn. */
    int dispatchAll(List<PlannedRun> runs) {
        List<Iterator<PlannedOperation>> cursors = new ArrayList<>();
        runs.forEach(run -> cursors.add(run.operations().iterator()));
        int dispatched = 0;
        boolean any = true;
        while (any) {
            any = false;
            for (Iterator<PlannedOperation> cursor : cursors) {
                if (cursor.hasNext()) {
                    dispatch(cursor.next());
                    dispatched++;
                    any = true;
                }
            }
        }
        return dispatched;
    }

    void dispatch(PlannedOperation operation) {
        client.dispatch(client.newDispatch(operation.id(), operation.tool().toolName(), operation.toolSchemaVersion(),
                operation.payload(), operation.traceId(), operation.correlationId(), operation.approvalId()));
    }

    /**
     * Writes two dispatches that break the wire contract (an operation id that does not match its parts, and a payload
     * that is not JSON) straight to the stream, as a buggy runtime would.
     *
     * @return the stream entry ids Redis gave them
     */
    List<String> dispatchMalformed(String runId) {
        OperationId mismatched = new OperationId(runId, "charge-legacy-1", 0);
        Map<String, String> wrongId = fields(mismatched, "{\"amount\":10,\"currency\":\"EUR\"}");
        wrongId.put("operation_id", runId + ":charge-legacy-1:7");
        OperationId broken = new OperationId(runId, "charge-legacy-2", 0);
        Map<String, String> notJson = fields(broken, "{amount: 10, currency: EUR");
        return List.of(xadd(wrongId), xadd(notJson));
    }

    private Map<String, String> fields(OperationId id, String payload) {
        DispatchEnvelope valid = new DispatchEnvelope(id, 1, "demo.charge", IncidentScenario.ORIGINAL_SCHEMA_VERSION,
                id.idempotencyKey(), "{}", null, null, "legacy-runtime-0.9", clock.instant(), null, null, null, null, null);
        Map<String, String> fields = new LinkedHashMap<>(codec.encode(valid));
        fields.put("payload", payload);
        return fields;
    }

    private String xadd(Map<String, String> fields) {
        return redis.sync().xadd(redis.keys().dispatch(), new XAddArgs(), fields);
    }
}
