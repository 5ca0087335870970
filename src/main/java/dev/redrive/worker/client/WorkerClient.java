package dev.redrive.worker.client;

import dev.redrive.RuntimeVersion;
import dev.redrive.broker.Redis;
import dev.redrive.broker.RedisScript;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.envelope.Traceparent;
import dev.redrive.identity.OperationId;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Database;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.store.operation.Recorded;
import dev.redrive.store.operation.OperationFacts;
import dev.redrive.store.operation.OperationStore;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The publishing side of the wire contract, as a workflow runtime (or a redrive) uses it. The operation is recorded in
 * PostgreSQL before anything is written to Redis, so a sweep can re-publish whatever Redis loses.
 */
public final class WorkerClient {
    /** Dispatches recorded in one transaction and published in one pipeline by {@link #dispatchAll}. */
    static final int CHUNK = 1000;
    /**
     * Adds many dispatches to the stream in one call: ARGV holds, per dispatch, its number of fields and then its
     * field names and values; returns the entry ids in order.
     */
    private static final RedisScript PUBLISH_ALL = new RedisScript("""
            local ids = {}
            local i = 1
            while i <= #ARGV do
                local fields = tonumber(ARGV[i])
                ids[#ids + 1] = redis.call('XADD', KEYS[1], '*', unpack(ARGV, i + 1, i + 2 * fields))
                i = i + 2 * fields + 1
            end
            return ids
            """);

    private final OperationRegistry registry;
    private final OperationStore operations;
    private final Redis redis;
    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final Clock clock;

    public WorkerClient(Database database, Redis redis, Clock clock) {
        this.registry = new OperationRegistry(database.jdbc());
        this.operations = new OperationStore(database.jdbc());
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
        return firstDispatch(clock, id, tool, toolSchemaVersion, payload, traceId, correlationId, approvalId);
    }

    /**
     * {@link #newDispatch}, dispatched at {@code clock}'s time, for a caller that builds its dispatches before it has
     * a client (a bulk dispatch reads its file while Redis connects).
     */
    public static DispatchEnvelope firstDispatch(Clock clock, OperationId id, String tool, String toolSchemaVersion,
                                                 String payload, String traceId, String correlationId,
                                                 String approvalId) {
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
     * operations are recorded with two multi-row statements in one transaction, then its dispatches are published by
     * one script call that adds them all to the stream in order. A conflict is reported in its result and not
     * published; the others go on. A chunk is recorded before it is published, so a failure between the two leaves
     * operations PENDING that a running worker's sweep publishes. While a chunk is published on a thread of its own,
     * the next one is recorded: the two servers work at once instead of in turn, and at most one chunk is ahead.
     */
    public List<BulkDispatched> dispatchAll(List<DispatchEnvelope> envelopes) {
        List<BulkDispatched> results = new ArrayList<>(envelopes.size());
        if (envelopes.size() <= CHUNK) {
            recorded(envelopes).publish(this::publishAll).addTo(results);
            return results;
        }
        ExecutorService publisher = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "redrive-dispatch-publisher");
            thread.setDaemon(true);
            return thread;
        });
        try {
            CompletableFuture<RecordedChunk> publishing = null;
            for (int from = 0; from < envelopes.size(); from += CHUNK) {
                RecordedChunk chunk = recorded(envelopes.subList(from, Math.min(envelopes.size(), from + CHUNK)));
                if (publishing != null) {
                    published(publishing).addTo(results);
                }
                publishing = CompletableFuture.supplyAsync(() -> chunk.publish(this::publishAll), publisher);
            }
            published(publishing).addTo(results);
            return results;
        } finally {
            publisher.shutdownNow();
        }
    }

    private RecordedChunk recorded(List<DispatchEnvelope> chunk) {
        return new RecordedChunk(chunk, registry.recordAll(chunk, envelope -> OperationStatus.PENDING), null);
    }

    /** Waits for a chunk's publish; its failure is thrown as the publish threw it. */
    private static RecordedChunk published(CompletableFuture<RecordedChunk> publishing) {
        try {
            return publishing.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** A chunk as recorded and, once {@link #publish}ed, with the stream entry ids of what was not a conflict. */
    private record RecordedChunk(List<DispatchEnvelope> envelopes, List<Recorded> recorded, List<String> entryIds) {
        RecordedChunk publish(Function<List<DispatchEnvelope>, List<String>> publishAll) {
            List<DispatchEnvelope> publishable = new ArrayList<>(envelopes.size());
            for (int i = 0; i < envelopes.size(); i++) {
                if (recorded.get(i).outcome() != Recorded.Outcome.CONFLICT) {
                    publishable.add(envelopes.get(i));
                }
            }
            return new RecordedChunk(envelopes, recorded, publishAll.apply(publishable));
        }

        void addTo(List<BulkDispatched> results) {
            int published = 0;
            for (int i = 0; i < envelopes.size(); i++) {
                Recorded outcome = recorded.get(i);
                results.add(new BulkDispatched(envelopes.get(i), outcome.outcome() == Recorded.Outcome.CONFLICT ? null
                        : entryIds.get(published++), outcome));
            }
        }
    }

    /**
     * Publishes dispatches whose state is already recorded in PostgreSQL (redrives committed together), in order, with
     * one script call that adds them all to the stream. Never records anything itself.
     *
     * @return the stream entry ids, in order
     */
    public List<String> publishAll(List<DispatchEnvelope> envelopes) {
        if (envelopes.isEmpty()) {
            return List.of();
        }
        List<String> arguments = new ArrayList<>();
        for (DispatchEnvelope envelope : envelopes) {
            Map<String, String> fields = codec.encode(envelope);
            arguments.add(Integer.toString(fields.size()));
            fields.forEach((name, value) -> {
                arguments.add(name);
                arguments.add(value);
            });
        }
        return PUBLISH_ALL.run(redis, ScriptOutputType.MULTI, new String[]{redis.keys().dispatch()},
                arguments.toArray(String[]::new));
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

    /**
     * Publishes again the dispatches of committed redrive commands that are not in the stream: of {@code commands},
     * those whose operation still waits (PENDING with that command) and whose dispatch is not among the entries added
     * since {@code since}. How a resumed batch finishes the publishing of a chunk its dead process had committed.
     *
     * @return how many dispatches were published again
     */
    public int publishMissing(Collection<UUID> commands, Instant since) {
        Set<String> missing = new HashSet<>(commands.stream().map(UUID::toString).toList());
        String stream = redis.keys().dispatch();
        Range<String> range = Range.create(since.toEpochMilli() + "-0", "+");
        while (!missing.isEmpty()) {
            List<StreamMessage<String, String>> page = redis.sync().xrange(stream, range, Limit.from(CHUNK));
            page.forEach(entry -> missing.remove(entry.getBody().get("redrive_command_id")));
            if (page.size() < CHUNK) {
                break;
            }
            range = Range.from(Range.Boundary.excluding(page.get(page.size() - 1).getId()), Range.Boundary.including("+"));
        }
        if (missing.isEmpty()) {
            return 0;
        }
        List<DispatchEnvelope> waiting = operations.waitingFor(missing.stream().map(UUID::fromString).toList()).stream()
                .map(record -> dispatchOf(record, clock.instant())).toList();
        publishAll(waiting);
        return waiting.size();
    }

    /** The dispatch a waiting operation's record describes: its attempt, with its redrive command. */
    private static DispatchEnvelope dispatchOf(OperationFacts record, Instant at) {
        return new DispatchEnvelope(OperationId.parse(record.operationId()), record.attempt(), record.tool(),
                record.toolSchemaVersion(), record.idempotencyKey(), record.payload(), record.traceId(),
                record.correlationId(), record.runtimeVersion(), at, null, record.lastErrorClass(),
                record.redriveCommandId().toString(), record.approvalId(), record.traceparent());
    }
}
