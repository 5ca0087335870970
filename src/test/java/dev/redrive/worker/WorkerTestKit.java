package dev.redrive.worker;

import dev.redrive.broker.BinaryConnection;
import dev.redrive.broker.Redis;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.demo.tools.EffectPolicy;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import dev.redrive.store.operation.ClaimRequest;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.HttpTool;
import dev.redrive.worker.tool.Tool;
import org.awaitility.core.ConditionTimeoutException;

import java.nio.charset.StandardCharsets;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/** What the worker scenarios share: the demo tools over real HTTP, quick worker settings and SQL look-ups. */
final class WorkerTestKit implements AutoCloseable {
    static final Duration LEASE = Duration.ofSeconds(2);

    private final Database database;
    private final Redis redis;
    private final DemoToolServer tools;
    private final WorkerClient client;
    private final List<Worker> workers = new ArrayList<>();

    WorkerTestKit(TestNamespace ns) {
        this(ns.database(), ns.redis());
    }

    /** A kit whose demo tools apply effects as {@code policy} says. */
    WorkerTestKit(TestNamespace ns, EffectPolicy policy) {
        this(ns.database(), ns.redis(), policy);
    }

    /** A kit whose workers and client use {@code redis} (a server of the test's own) instead of the namespace's. */
    WorkerTestKit(TestNamespace ns, Redis redis) {
        this(ns.database(), redis);
    }

    /** A kit on {@code redis} (a server of the test's own) whose demo tools apply effects as {@code policy} says. */
    WorkerTestKit(TestNamespace ns, Redis redis, EffectPolicy policy) {
        this(ns.database(), redis, policy);
    }

    /**
     * A kit on {@code database} (a migrated schema on a server of the test's own): its workers, client, demo tools
     * and look-ups all use it instead of the namespace's.
     */
    WorkerTestKit(Database database, Redis redis) {
        this(database, redis, EffectPolicy.ONCE_PER_KEY);
    }

    private WorkerTestKit(Database database, Redis redis, EffectPolicy policy) {
        this.database = database;
        this.redis = redis;
        this.tools = DemoToolServer.start(database, Clock.systemUTC(), policy);
        this.client = new WorkerClient(database, redis, Clock.systemUTC());
    }

    DemoToolServer tools() {
        return tools;
    }

    WorkerClient client() {
        return client;
    }

    Jdbc jdbc() {
        return database.jdbc();
    }

    HttpTool charge(Duration requestTimeout) {
        return HttpTool.builder("demo.charge", "1", tools.chargeEndpoint())
                .lookupEndpoint(tools.lookupEndpoint())
                .requestTimeout(requestTimeout)
                .build();
    }

    /** A worker with quick leases and retries, not started. */
    Worker.Builder worker(String name, Tool tool) {
        return worker(name, tool, database);
    }

    /** As {@link #worker(String, Tool)}, reaching the operation store through {@code workerDatabase} (a proxy, say). */
    Worker.Builder worker(String name, Tool tool, Database workerDatabase) {
        return Worker.builder(workerDatabase, redis)
                .tool(tool)
                .consumerName(name)
                .concurrency(8)
                .leaseDuration(LEASE)
                .claimInterval(Duration.ofMillis(200))
                .shutdownGrace(Duration.ofSeconds(5))
                .retryPolicy(BackoffRetryPolicy.builder().baseDelay(Duration.ofMillis(50)).maxDelay(Duration.ofMillis(400))
                        .minimumDelay(FailureClass.DEPENDENCY_DOWN, Duration.ofMillis(200)).build());
    }

    /** Starts a worker of the charge tool per name, all sharing one budget of {@code perSecond} calls (burst 1). */
    void startSharingABudget(double perSecond, String... names) {
        HttpTool charge = charge(Duration.ofSeconds(2));
        for (String name : names) {
            start(worker(name, charge).toolBudget("demo.charge", perSecond, 1));
        }
    }

    Worker start(Worker.Builder builder) {
        Worker worker = builder.build().start();
        workers.add(worker);
        return worker;
    }

    DispatchEnvelope dispatch(String run, String node, String payload) {
        OperationId id = new OperationId(run, node, 0);
        DispatchEnvelope envelope = client.newDispatch(id, "demo.charge", "1", payload, "trace-" + run, "corr-" + run, null);
        client.dispatch(envelope);
        return envelope;
    }

    /** Dispatches {@code count} plain charges of {@code run}: nodes charge-0, charge-1, … of amounts 1, 2, …; their ids. */
    List<OperationId> dispatchCharges(String run, int count) {
        List<OperationId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(dispatch(run, "charge-" + i, "{\"amount\":" + (i + 1) + "}").operationId());
        }
        return ids;
    }

    /** Adds an entry to the dispatch stream as another runtime would, byte for byte; returns its entry id. */
    String xaddRaw(Map<String, byte[]> fields) {
        try (BinaryConnection connection = redis.newBinaryConnection()) {
            return connection.sync().xadd(redis.keys().dispatch(), fields);
        }
    }

    /** The wire fields of a first dispatch as another runtime would publish it, as UTF-8 bytes. */
    Map<String, byte[]> foreignDispatch(OperationId id, String payload) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        new EnvelopeCodec().encode(client.newDispatch(id, "demo.charge", "1", payload, "trace-" + id.runId(), null, null))
                .forEach((name, value) -> fields.put(name, value.getBytes(StandardCharsets.UTF_8)));
        return fields;
    }

    /**
     * Plays a worker that claims the dispatch's operation for {@code lease} and then dies: nothing of its attempt is
     * recorded but the claim. Returns whether the claim won; the caller makes the dead worker's call, if any.
     */
    boolean ghostClaim(DispatchEnvelope dispatch, Duration lease) {
        ClaimRequest claim = ClaimRequest.of(dispatch, "0-" + System.nanoTime());
        return new OperationStore(jdbc()).claimAndLoad(List.of(claim.operationId()), List.of(claim), "ghost",
                Instant.now().truncatedTo(ChronoUnit.MILLIS), lease).leases().containsKey(claim.operationId());
    }

    String status(OperationId id) {
        return jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), id.value())
                .orElse("UNKNOWN");
    }

    void awaitStatus(OperationId id, String status, Duration within) {
        try {
            await().atMost(within).pollInterval(Duration.ofMillis(50)).until(() -> status.equals(status(id)));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(id + " did not become " + status + " within " + within + ": " + describe(id), e);
        }
    }

    /** The operation row, its attempts and the tool calls it made, for a failure message. */
    String describe(OperationId id) {
        return jdbc().query("SELECT to_jsonb(o)::text FROM operations o WHERE operation_id = ?", row -> row.getString(1), id.value())
                + " attempts " + jdbc().query("SELECT to_jsonb(a)::text FROM attempts a WHERE operation_id = ? ORDER BY id",
                row -> row.getString(1), id.value())
                + " calls " + jdbc().query("SELECT received_at || ' ' || http_status FROM demo_tool_calls WHERE idempotency_key = ? ORDER BY id",
                row -> row.getString(1), id.idempotencyKey())
                + " retry set " + redis.sync().zrangeWithScores(redis.keys().retry(), 0, -1)
                + " pending " + pendingEntries();
    }

    long count(String sql, Object... params) {
        return jdbc().queryLong(sql, params);
    }

    /**
     * The calls of the operation's key that the tool acted on: not one refused because it arrived after its deadline
     * (408), which a loaded machine and a lease of a few hundred milliseconds can produce.
     */
    long callsFor(OperationId id) {
        return count("SELECT count(*) FROM demo_tool_calls WHERE idempotency_key = ? AND http_status <> 408",
                id.idempotencyKey());
    }

    long effectsFor(OperationId id) {
        return count("SELECT count(*) FROM demo_tool_effects WHERE idempotency_key = ?", id.idempotencyKey());
    }

    long pendingEntries() {
        return redis.sync().xpending(redis.keys().dispatch(), "workers").getCount();
    }

    @Override
    public void close() {
        for (Worker worker : workers) {
            worker.shutdown().join();
        }
        tools.close();
    }
}
