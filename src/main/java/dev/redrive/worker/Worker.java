package dev.redrive.worker;

import dev.redrive.broker.Redis;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.store.DatabaseClock;
import dev.redrive.store.tool.ToolSchemaStore;
import dev.redrive.worker.protocol.WorkerRuntime;
import dev.redrive.worker.protocol.WorkerSettings;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.retry.RetryPolicy;
import dev.redrive.worker.retry.RedisTokenBuckets;
import dev.redrive.worker.retry.RedisToolPauses;
import dev.redrive.worker.retry.ToolGate;
import dev.redrive.worker.retry.ToolGate.ToolBudget;
import dev.redrive.worker.telemetry.AttemptSpans;
import dev.redrive.worker.telemetry.WorkerMetrics;
import dev.redrive.worker.tool.Tool;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;

import javax.sql.DataSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The embedded worker: consumes dispatches from {@code {ns}:dispatch} (consumer group {@code workers}) and executes
 * each operation's effect exactly once, whatever the broker redelivers.
 *
 * <pre>{@code
 * Worker worker = Worker.builder(database, redis)
 *         .tool(HttpTool.builder("demo.charge", "1", chargeUri).lookupEndpoint(lookupUri).build())
 *         .consumerName("billing-1")
 *         .concurrency(8)
 *         .build();
 * worker.start();
 * ...
 * worker.shutdown().join();
 * }</pre>
 *
 * <p>Per message it validates the envelope (an invalid one is dead-lettered as INVALID_INPUT and acked), loads the
 * operation's record (creating it on first sight), acks without a tool call when the operation already succeeded,
 * records why and acks when it is not eligible (run ended, stale attempt, dead-lettered without a valid redrive
 * command), claims a lease that bumps the fencing token, runs the tool with the stable idempotency key, commits
 * result + attempt row + status in one transaction guarded by the token, and only then acks. Failures are handled by
 * their class: retries go to {@code {ns}:retry} with exponential backoff, terminal failures and exhausted retries to
 * the DLQ with their evidence, unknown side effects are reconciled with the tool first. A DEPENDENCY_DOWN pauses its
 * tool for every worker of the namespace ({@code {ns}:tool-pauses}) until the failed call's retry is due; a tool's rate
 * budget ({@link Builder#toolBudget}) holds for all the namespace's workers together ({@code {ns}:tool-budget:<tool>}).
 */
public final class Worker {
    /** How long a worker relies on what it last read of the other workers' tool pauses. */
    private static final Duration SHARED_PAUSES_REFRESH = Duration.ofSeconds(1);
    /** Entries {@code {ns}:dispatch} and {@code {ns}:dlq} keep unless told otherwise. */
    public static final long DEFAULT_STREAM_RETENTION = 100_000;

    private final WorkerSettings settings;
    private final Database database;
    private final WorkerRuntime runtime;
    private final AtomicReference<WorkerState> state = new AtomicReference<>(WorkerState.NEW);
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private final Duration shutdownGrace;
    private final Redis ownRedis;

    private Worker(Builder builder) {
        Map<String, Tool> tools = Map.copyOf(builder.tools);
        Duration renewal = builder.leaseRenewalInterval != null ? builder.leaseRenewalInterval
                : builder.leaseDuration.dividedBy(3);
        this.settings = new WorkerSettings(builder.consumerName, builder.concurrency, builder.leaseDuration, renewal,
                builder.batchSize, builder.deliveryLimit, builder.maxPayloadBytes, builder.readBlock,
                builder.claimInterval, builder.schedulerInterval, builder.sweepGrace, builder.retentionInterval,
                builder.streamRetention,
                DatabaseClock.aligned(builder.database.jdbc(), builder.clock), builder.retryPolicy,
                new ToolGate(builder.budgets, new RedisToolPauses(builder.redis), SHARED_PAUSES_REFRESH,
                        new RedisTokenBuckets(builder.redis)), tools,
                builder.meterRegistry == null ? WorkerMetrics.none(builder.redis.keys().namespace())
                        : new WorkerMetrics(builder.meterRegistry, builder.redis.keys().namespace())
                        .withTools(tools.keySet()),
                new AttemptSpans(builder.openTelemetry == null ? GlobalOpenTelemetry.get() : builder.openTelemetry),
                builder.unservedToolGrace);
        this.database = builder.database;
        this.ownRedis = builder.ownRedis;
        this.shutdownGrace = builder.shutdownGrace;
        this.runtime = new WorkerRuntime(settings, builder.database, builder.redis);
    }

    /** Starts configuring a worker on this operation store and broker (both shared, not closed by the worker). */
    public static Builder builder(Database database, Redis redis) {
        return new Builder(database, redis, null);
    }

    /**
     * Starts configuring a worker of {@code namespace} in a host application's own pool and Lettuce client (a
     * {@link RedisClient} or a {@link RedisClusterClient}). The worker borrows the pool's connections (each with the
     * namespace's schema as its search path while the worker holds it) and opens connections of its own on the client;
     * once stopped it closes those connections and nothing of the host's: pool and client stay the host's to close.
     * The namespace is migrated with {@code Database.using(dataSource, namespace).migrate()}.
     */
    public static Builder builder(DataSource hostPool, AbstractRedisClient hostClient, String namespace) {
        Redis redis;
        if (hostClient instanceof RedisClient standalone) {
            redis = Redis.using(standalone, namespace);
        } else if (hostClient instanceof RedisClusterClient cluster) {
            redis = Redis.using(cluster, namespace);
        } else {
            throw new IllegalArgumentException("expected a RedisClient or a RedisClusterClient, got "
                    + hostClient.getClass().getName());
        }
        return new Builder(Database.using(hostPool, namespace), redis, redis);
    }

    /**
     * Records every tool's schema version in {@code tool_schemas}, creates the consumer group if needed and starts
     * consuming. A worker starts once.
     */
    public Worker start() {
        if (!state.compareAndSet(WorkerState.NEW, WorkerState.RUNNING)) {
            throw new IllegalStateException("worker " + settings.consumerName() + " is " + state.get() + ", not NEW");
        }
        ToolSchemaStore schemas = new ToolSchemaStore(database.jdbc());
        for (Tool tool : settings.tools().values()) {
            schemas.register(tool.name(), tool.schemaVersion(), "worker " + settings.consumerName(),
                    settings.clock().instant());
        }
        runtime.start();
        return this;
    }

    /**
     * Stops gracefully: no new reads; attempts in flight finish, commit and are acked within the shutdown grace
     * period; the leases of attempts still running then are given back (their results are not committed) and their
     * entries stay pending, to be re-claimed by another worker, which reconciles with the tool before calling it.
     *
     * @return completes when every thread of the worker has stopped
     */
    public CompletableFuture<Void> shutdown() {
        if (state.compareAndSet(WorkerState.NEW, WorkerState.STOPPED)) {
            closeOwnConnections();
            stopped.complete(null);
        } else if (state.compareAndSet(WorkerState.RUNNING, WorkerState.STOPPING)) {
            Thread stopper = new Thread(() -> {
                try {
                    runtime.stop(shutdownGrace);
                    closeOwnConnections();
                    state.set(WorkerState.STOPPED);
                    stopped.complete(null);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopped.completeExceptionally(e);
                } catch (RuntimeException e) {
                    stopped.completeExceptionally(e);
                }
            }, settings.consumerName() + "-shutdown");
            stopper.start();
        }
        return stopped;
    }

    private void closeOwnConnections() {
        if (ownRedis != null) {
            ownRedis.close();
        }
    }

    /**
     * Completes when every thread of the worker has stopped, after {@link #shutdown}: the moment to close the
     * {@code Database} and {@code Redis} the worker was built with (it never closes them itself).
     */
    public CompletionStage<Void> stopped() {
        return stopped.minimalCompletionStage();
    }

    public WorkerState state() {
        return state.get();
    }

    /** The consumer name this worker reads as and writes as lease owner. */
    public String consumerName() {
        return settings.consumerName();
    }

    /** Configures a {@link Worker}. Every setting has a default except the tools. */
    public static final class Builder {
        private final Database database;
        private final Redis redis;
        private final Map<String, Tool> tools = new LinkedHashMap<>();
        private final Map<String, ToolBudget> budgets = new LinkedHashMap<>();
        private String consumerName = defaultConsumerName();
        private int concurrency = 8;
        private Duration leaseDuration = Duration.ofSeconds(30);
        private Duration leaseRenewalInterval;
        private int batchSize = 64;
        private int deliveryLimit = 5;
        private int maxPayloadBytes = EnvelopeCodec.DEFAULT_MAX_PAYLOAD_BYTES;
        private long streamRetention = DEFAULT_STREAM_RETENTION;
        private Duration readBlock = Duration.ofMillis(500);
        private Duration claimInterval = Duration.ofSeconds(1);
        private Duration schedulerInterval = Duration.ofMillis(100);
        private Duration shutdownGrace = Duration.ofSeconds(30);
        private Duration sweepGrace = Duration.ofMinutes(5);
        private Duration retentionInterval = Duration.ofMinutes(10);
        private Duration unservedToolGrace = Duration.ofMinutes(10);
        private RetryPolicy retryPolicy = BackoffRetryPolicy.defaults();
        private Clock clock = Clock.systemUTC();
        private MeterRegistry meterRegistry;
        private OpenTelemetry openTelemetry;

        /** Connections the worker opened on a host's client: closed when it stops. */
        private final Redis ownRedis;

        private Builder(Database database, Redis redis, Redis ownRedis) {
            this.database = Objects.requireNonNull(database, "database");
            this.redis = Objects.requireNonNull(redis, "redis");
            this.ownRedis = ownRedis;
        }

        /** Registers a tool; dispatches name it by {@link Tool#name()}. */
        public Builder tool(Tool tool) {
            OperationId.requireId("tool name", tool.name());
            if (tools.putIfAbsent(tool.name(), tool) != null) {
                throw new IllegalArgumentException("tool " + tool.name() + " is registered twice");
            }
            return this;
        }

        /**
         * Keeps calls to {@code tool} under {@code permitsPerSecond} (bursts of {@code burst}); over it they wait. The
         * budget is the namespace's: every worker draws from one bucket in Redis, so give them all the same budget.
         */
        public Builder toolBudget(String tool, double permitsPerSecond, int burst) {
            budgets.put(tool, new ToolBudget(permitsPerSecond, burst));
            return this;
        }

        /** The consumer name in group {@code workers}, also the lease owner (default {@code host-pid}). */
        public Builder consumerName(String consumerName) {
            OperationId.requireId("consumer name", consumerName);
            this.consumerName = consumerName;
            return this;
        }

        /** How many tool calls run at once (default 8). */
        public Builder concurrency(int concurrency) {
            this.concurrency = atLeastOne(concurrency, "concurrency");
            return this;
        }

        /**
         * How long a claimed attempt is this worker's alone without a renewal (default 30 s). While an attempt is in
         * flight its lease is renewed (see {@link #leaseRenewalInterval(Duration)}), so a tool call may take longer.
         * Entries idle longer than this are re-claimed by other workers, and a worker paused past it (its renewals
         * stopped too) can no longer commit once another worker has taken over.
         */
        public Builder leaseDuration(Duration leaseDuration) {
            this.leaseDuration = positive(leaseDuration, "leaseDuration");
            return this;
        }

        /**
         * How often the leases of the attempts in flight are extended by a full lease duration, and their stream entries
         * marked as still being handled (default a third of the lease duration). Keep it well below the lease duration.
         */
        public Builder leaseRenewalInterval(Duration leaseRenewalInterval) {
            this.leaseRenewalInterval = positive(leaseRenewalInterval, "leaseRenewalInterval");
            return this;
        }

        /**
         * How many entries one read or claim carries at most (default 64). A worker never claims more than its pool
         * can start soon, though: its free threads and a queue of a quarter of the pool ({@link #concurrency} 8 reads
         * and claims at most 10 at a time); the rest stays in the stream for this worker or another. An attempt whose
         * lease expires while it waits for a thread is not run and stays pending.
         */
        public Builder batchSize(int batchSize) {
            this.batchSize = atLeastOne(batchSize, "batchSize");
            return this;
        }

        /**
         * After this many deliveries that claimed an operation without settling it (the handler crashed, the worker
         * died) it is dead-lettered (default 5). Deliveries skipped because another worker holds a live lease do not
         * count, however often the broker redelivers them.
         */
        public Builder deliveryLimit(int deliveryLimit) {
            this.deliveryLimit = atLeastOne(deliveryLimit, "deliveryLimit");
            return this;
        }

        /** Payloads larger than this are invalid input (default 256 KiB). */
        public Builder maxPayloadBytes(int maxPayloadBytes) {
            this.maxPayloadBytes = atLeastOne(maxPayloadBytes, "maxPayloadBytes");
            return this;
        }

        /**
         * How many entries {@code {ns}:dispatch} and {@code {ns}:dlq} keep (default {@value #DEFAULT_STREAM_RETENTION}):
         * older ones are trimmed every few seconds, except dispatches not read or not acked yet, which are never
         * trimmed.
         */
        public Builder streamRetention(long streamRetention) {
            if (streamRetention < 1) {
                throw new IllegalArgumentException("streamRetention must be 1 or more, got " + streamRetention);
            }
            this.streamRetention = streamRetention;
            return this;
        }

        /** When and how often to retry each failure class (default {@link BackoffRetryPolicy#defaults()}). */
        public Builder retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
            return this;
        }

        /** How often idle entries are looked for (default 1 s). */
        public Builder claimInterval(Duration claimInterval) {
            this.claimInterval = positive(claimInterval, "claimInterval");
            return this;
        }

        /** How often scheduled retries that are due are moved back to the dispatch stream (default 100 ms). */
        public Builder schedulerInterval(Duration schedulerInterval) {
            this.schedulerInterval = positive(schedulerInterval, "schedulerInterval");
            return this;
        }

        /**
         * How long an operation may wait for a worker (PENDING, an overdue retry, or an expired lease) before the sweep
         * publishes its dispatch again because Redis may have lost it (default 5 min).
         */
        public Builder sweepGrace(Duration sweepGrace) {
            this.sweepGrace = positive(sweepGrace, "sweepGrace");
            return this;
        }

        /**
         * How often the namespace's retention policy is applied: with {@code policy retention KEEP} set, decided DLQ
         * entries decided longer ago than KEEP lose their evidence (default 10 min; see README, Retention).
         */
        public Builder retentionInterval(Duration retentionInterval) {
            this.retentionInterval = positive(retentionInterval, "retentionInterval");
            return this;
        }

        /** How long in-flight attempts get to finish on shutdown before their leases are given back (default 30 s). */
        /**
         * Workers that serve different tools share the namespace: a dispatch of a tool this worker does not serve is
         * handed on to the workers that do, and dead-lettered as {@code no_worker_for_tool} only once no worker has
         * announced that tool for this long (default 10 min).
         */
        public Builder unservedToolGrace(Duration unservedToolGrace) {
            this.unservedToolGrace = positive(unservedToolGrace, "unservedToolGrace");
            return this;
        }

        public Builder shutdownGrace(Duration shutdownGrace) {
            this.shutdownGrace = positive(shutdownGrace, "shutdownGrace");
            return this;
        }

        /**
         * The local clock (default UTC system clock). Leases, retries and records use the database's time, measured
         * against this clock when the worker is built and again every few seconds, so that workers whose clocks
         * disagree still agree on when a lease ends.
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Where the worker's meters go (default: nowhere). README lists them: attempts, tool-call latency, retries,
         * dead letters, reconciliations, lease takeovers, fenced commits, skipped deliveries, batch size, claim
         * latency, retry-set size, dispatch lag and redrive commands, all tagged with the namespace.
         */
        public Builder meterRegistry(MeterRegistry meterRegistry) {
            this.meterRegistry = Objects.requireNonNull(meterRegistry, "meterRegistry");
            return this;
        }

        /**
         * Where the worker's spans go (default: {@code GlobalOpenTelemetry}, a no-op until an SDK or the agent is
         * installed). Each attempt is a span {@code redrive.attempt}, a child of the dispatch's {@code traceparent};
         * each tool call a child span {@code redrive.tool_call}, whose context {@code HttpTool} sends to the tool.
         */
        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
            return this;
        }

        public Worker build() {
            if (tools.isEmpty()) {
                throw new IllegalArgumentException("a worker needs at least one tool");
            }
            for (String tool : budgets.keySet()) {
                if (!tools.containsKey(tool)) {
                    throw new IllegalArgumentException("budget for " + tool + ", which is not registered");
                }
            }
            return new Worker(this);
        }

        private static int atLeastOne(int value, String name) {
            if (value < 1) {
                throw new IllegalArgumentException(name + " must be 1 or more, got " + value);
            }
            return value;
        }

        private static Duration positive(Duration value, String name) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, got " + value);
            }
            return value;
        }

        private static String defaultConsumerName() {
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9._-]", "-");
            } catch (UnknownHostException e) {
                host = "worker";
            }
            String name = host + "-" + ProcessHandle.current().pid();
            return name.length() <= 128 ? name : name.substring(0, 128);
        }
    }
}
