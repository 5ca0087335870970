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
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.XAddArgs;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The publishing side of the wire contract, as a workflow runtime (or a redrive) uses it. The operation is recorded in
 * PostgreSQL before anything is written to Redis, so a sweep can re-publish whatever Redis loses.
 */
public final class WorkerClient {
    /** Dispatches recorded in one transaction and published in one pipeline by {@link #dispatchAll}. */
    static final int CHUNK = 1000;
    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(10);

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
     * What one dispatch of {@link #dispatchAll} did.
     *
     * @param entryId  the stream entry id, null for a conflict (nothing was published)
     * @param recorded what recording found: created, a repeat with the same parameters, or a conflict (with its line)
     */
    public record BulkDispatched(DispatchEnvelope envelope, String entryId, Recorded recorded) {
        public boolean conflict() {
            return recorded.outcome() == Recorded.Outcome.CONFLICT;
        }
    }

    /**
     * Dispatches many operations as {@link #dispatch} does one, in chunks of {@value #CHUNK}: each chunk's runs and
     * operations are recorded with two multi-row statements in one transaction, then its dispatches are published
     * pipelined (all sent before any answer is awaited). A conflict is reported in its result and not published; the
     * others go on. A chunk is recorded before it is published, so a failure between the two leaves operations
     * PENDING that a running worker's sweep publishes.
     */
    public List<BulkDispatched> dispatchAll(List<DispatchEnvelope> envelopes) {
        List<BulkDispatched> results = new ArrayList<>(envelopes.size());
        for (int from = 0; from < envelopes.size(); from += CHUNK) {
            List<DispatchEnvelope> chunk = envelopes.subList(from, Math.min(envelopes.size(), from + CHUNK));
            Map<String, Recorded> recorded = registry.recordAll(chunk, envelope -> OperationStatus.PENDING);
            List<RedisFuture<String>> published = new ArrayList<>(chunk.size());
            for (DispatchEnvelope envelope : chunk) {
                boolean conflict = recorded.get(envelope.operationId().value()).outcome() == Recorded.Outcome.CONFLICT;
                published.add(conflict ? null : redis.async().xadd(redis.keys().dispatch(), new XAddArgs(),
                        codec.encode(envelope)));
            }
            for (int i = 0; i < chunk.size(); i++) {
                DispatchEnvelope envelope = chunk.get(i);
                RedisFuture<String> entry = published.get(i);
                results.add(new BulkDispatched(envelope, entry == null ? null : await(entry),
                        recorded.get(envelope.operationId().value())));
            }
        }
        return results;
    }

    private static String await(RedisFuture<String> entry) {
        try {
            return entry.get(PUBLISH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new RedisException(e.getCause());
        } catch (TimeoutException e) {
            throw new RedisCommandTimeoutException("no answer to a pipelined XADD within " + PUBLISH_TIMEOUT);
        }
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
