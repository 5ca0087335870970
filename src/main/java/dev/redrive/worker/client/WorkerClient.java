package dev.redrive.worker.client;

import dev.redrive.RuntimeVersion;
import dev.redrive.broker.Redis;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.envelope.Traceparent;
import dev.redrive.identity.OperationId;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Database;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.store.operation.Recorded;
import io.lettuce.core.XAddArgs;

import java.time.Clock;
import java.util.Map;

/**
 * The publishing side of the wire contract, as a workflow runtime (or a redrive) uses it. The operation is recorded in
 * PostgreSQL before anything is written to Redis, so a sweep can re-publish whatever Redis loses.
 */
public final class WorkerClient {
    private final OperationRegistry registry;
    private final Redis redis;
    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final Clock clock;

    public WorkerClient(Database database, Redis redis, Clock clock) {
        this.registry = new OperationRegistry(database.jdbc());
        this.redis = redis;
        this.clock = clock;
    }

    /**
     * Builds the first dispatch (attempt 1) of an operation with its derived idempotency key, carrying the current
     * span as its {@code traceparent} when the caller runs inside one (an OpenTelemetry SDK is installed), so that
     * its attempts continue the caller's trace.
     */
    public DispatchEnvelope newDispatch(OperationId id, String tool, String toolSchemaVersion, String payload,
                                        String traceId, String correlationId, String approvalId) {
        return new DispatchEnvelope(id, 1, tool, toolSchemaVersion, id.idempotencyKey(), payload, traceId,
                correlationId, RuntimeVersion.wireValue(), clock.instant(), null, null, null, approvalId,
                Traceparent.current());
    }

    /**
     * What a dispatch did.
     *
     * @param entryId the stream entry id Redis gave the dispatch
     * @param repeat  the operation was already recorded with the same parameters: this dispatch is a repeat of it
     *                (published again, so that a first dispatch whose publish was lost still runs; the worker answers
     *                the repeat from the facts)
     */
    public record Dispatched(String entryId, boolean repeat) {
    }

    /**
     * Records the operation as PENDING when it is new, then publishes the dispatch. A repeat with the same parameters
     * is published again and changes nothing else.
     *
     * @throws IdempotencyConflictException when the operation id or the idempotency key is recorded with other
     *                                      parameters; nothing is published then
     */
    public Dispatched dispatch(DispatchEnvelope envelope) {
        Recorded recorded = registry.record(envelope, OperationStatus.PENDING);
        if (recorded.outcome() == Recorded.Outcome.CONFLICT) {
            throw new IdempotencyConflictException(recorded.conflict());
        }
        return new Dispatched(publish(envelope), recorded.outcome() == Recorded.Outcome.ALREADY_RECORDED);
    }

    /**
     * Publishes a dispatch whose state is already recorded in PostgreSQL (a retry or a redrive that the caller has
     * committed). Never records anything itself.
     *
     * @return the stream entry id Redis gave the dispatch
     */
    public String publish(DispatchEnvelope envelope) {
        Map<String, String> fields = codec.encode(envelope);
        return redis.sync().xadd(redis.keys().dispatch(), new XAddArgs(), fields);
    }
}
