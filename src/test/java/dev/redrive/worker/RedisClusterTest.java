package dev.redrive.worker;

import dev.redrive.broker.Redis;
import dev.redrive.broker.StreamKeys;
import dev.redrive.cli.RedriveCommand;
import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.testing.RedisClusterNodes;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.HttpTool;
import io.lettuce.core.Range;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole flow on a Redis Cluster of three masters: a namespace's keys share one slot, a dispatch through a node
 * that does not serve them is followed to the one that does, and workers run, retry, dead-letter, redrive, pause and
 * budget exactly as on a standalone server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterTest {
    @RegisterExtension
    @Order(1)
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    @Order(2)
    static final RedisClusterNodes cluster = new RedisClusterNodes();

    private static Redis redis;

    @BeforeAll
    static void connect() {
        redis = Redis.connect(ns.configWithRedis(cluster.uri()));
        redis.deleteNamespaceKeys();
    }

    @AfterAll
    static void disconnect() {
        redis.deleteNamespaceKeys();
        redis.close();
    }

    @Test
    void everyKeyOfANamespace_hashesToOneSlot() {
        StreamKeys keys = redis.keys();
        List<Long> slots = Stream.of(keys.dispatch(), keys.retry(), keys.dlq(), keys.toolPauses(),
                        keys.toolBudget("demo.charge"), keys.marker(), keys.deliveries("1700000000000-0"))
                .map(key -> redis.sync().clusterKeyslot(key)).distinct().toList();
        assertThat(slots).hasSize(1);
    }

    @Test
    void dispatchThroughANodeThatDoesNotServeTheNamespace_reachesTheNodeThatDoes() throws Exception {
        int serving = cluster.portServing(redis.keys().dispatch());
        int other = cluster.ports().stream().filter(port -> port != serving).findFirst().orElseThrow();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = RedriveCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute("dispatch", "--run", "through-" + other, "--node", "charge", "--tool", "demo.charge",
                "--payload", "{\"amount\":1}", "--redis-uri", cluster.uriOfNode(other), "--pg-url", ns.config().pgUrl(),
                "--namespace", ns.name());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(redis.sync().xrange(redis.keys().dispatch(), Range.unbounded()))
                .extracting(entry -> entry.getBody().get("operation_id")).contains("through-" + other + ":charge:0");
    }

    /** Last: nothing runs the operations it publishes, and a worker of a later test would have to. */
    @Test
    @Order(Integer.MAX_VALUE)
    void aBulkDispatch_publishesEveryDispatchOnTheNodeOfTheNamespace() {
        WorkerClient client = new WorkerClient(ns.database(), redis, Clock.systemUTC());
        List<DispatchEnvelope> dispatches = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            dispatches.add(client.newDispatch(new OperationId("cluster-bulk", "n" + i, 0), "demo.charge", "1",
                    "{\"amount\":" + i + "}", null, null, null));
        }
        long before = redis.sync().xlen(redis.keys().dispatch());

        List<WorkerClient.BulkDispatched> results = client.dispatchAll(dispatches);

        assertThat(results).hasSize(1500).allSatisfy(result -> assertThat(result.entryId()).isNotNull());
        assertThat(redis.sync().xlen(redis.keys().dispatch())).isEqualTo(before + 1500);
    }

    @Test
    void workersOnACluster_runRetryDeadLetterRedriveAndPauseATool() {
        try (WorkerTestKit kit = new WorkerTestKit(ns, redis)) {
            HttpTool charge = kit.charge(Duration.ofSeconds(2));
            kit.start(kit.worker("cluster-a", charge));
            kit.start(kit.worker("cluster-b", charge));

            OperationId plain = kit.dispatch("cluster", "plain", "{\"amount\":1}").operationId();
            OperationId retried = kit.dispatch("cluster", "retried", "{\"amount\":2,\"fault\":\"transient:2\"}")
                    .operationId();
            OperationId dead = kit.dispatch("cluster", "dead", "{\"amount\":3,\"fault\":\"invalid:1\"}").operationId();
            OperationId paused = kit.dispatch("cluster", "paused", "{\"amount\":4,\"fault\":\"dependency_down:1\"}")
                    .operationId();

            kit.awaitStatus(plain, "SUCCEEDED", Duration.ofSeconds(20));
            kit.awaitStatus(retried, "SUCCEEDED", Duration.ofSeconds(20));
            assertThat(kit.callsFor(retried)).as("two failures promoted from the retry set, then success").isEqualTo(3);
            kit.awaitStatus(dead, "DEAD_LETTERED", Duration.ofSeconds(20));
            assertThat(redis.sync().xrange(redis.keys().dlq(), Range.unbounded()))
                    .extracting(entry -> entry.getBody().get("operation_id")).contains(dead.value());
            kit.awaitStatus(paused, "SUCCEEDED", Duration.ofSeconds(20));
            assertThat(kit.count("SELECT count(*) FROM attempts WHERE operation_id = ? AND error_class = ?",
                    paused.value(), FailureClass.DEPENDENCY_DOWN.name())).isEqualTo(1);

            DecisionResult redriven = new Decisions(ns.database(), kit.client(), Clock.systemUTC())
                    .redrive(new DecisionTarget(dead.value(), null, null, null), "ops", "fixed upstream");
            assertThat(redriven.outcome()).as(redriven.toString()).isEqualTo(DecisionOutcome.DONE);
            kit.awaitStatus(dead, "SUCCEEDED", Duration.ofSeconds(20));

            for (OperationId id : List.of(plain, retried, dead, paused)) {
                assertThat(kit.effectsFor(id)).as(id.value()).isEqualTo(1);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> kit.pendingEntries() == 0);
            assertThat(redis.sync().zcard(redis.keys().retry())).isZero();
        }
    }

    @Test
    void aPauseSetByOneWorker_holdsForAnotherOnTheCluster() {
        try (WorkerTestKit kit = new WorkerTestKit(ns, redis)) {
            HttpTool charge = kit.charge(Duration.ofSeconds(2));
            Duration outage = Duration.ofSeconds(3);
            kit.start(kit.worker("pauser", charge).retryPolicy(BackoffRetryPolicy.builder()
                    .minimumDelay(FailureClass.DEPENDENCY_DOWN, outage).build()));
            OperationId down = kit.dispatch("cluster-pause", "down", "{\"amount\":5,\"fault\":\"dependency_down:1\"}")
                    .operationId();
            kit.awaitStatus(down, "RETRY_SCHEDULED", Duration.ofSeconds(10));
            String pause = redis.sync().hget(redis.keys().toolPauses(), "demo.charge");
            assertThat(pause).endsWith(" DEPENDENCY_DOWN");
            Instant pausedUntil = Instant.ofEpochMilli(Long.parseLong(pause.split(" ")[0]));

            kit.start(kit.worker("follower", charge));
            OperationId fresh = kit.dispatch("cluster-pause", "fresh", "{\"amount\":6}").operationId();
            kit.awaitStatus(fresh, "SUCCEEDED", Duration.ofSeconds(20));
            Instant called = kit.jdbc().queryOne("SELECT received_at FROM demo_tool_calls WHERE idempotency_key = ?",
                    row -> row.getTimestamp(1).toInstant(), fresh.idempotencyKey()).orElseThrow();
            assertThat(called).as("called only once the pause ended").isAfterOrEqualTo(pausedUntil.minusMillis(50));
            kit.awaitStatus(down, "SUCCEEDED", Duration.ofSeconds(20));
        }
    }

    @Test
    void aBudgetSharedByTwoWorkers_holdsOnTheCluster() {
        double perSecond = 5;
        int operations = 8;
        try (WorkerTestKit kit = new WorkerTestKit(ns, redis)) {
            kit.startSharingABudget(perSecond, "budget-a", "budget-b");
            List<OperationId> ids = kit.dispatchCharges("cluster-budget", operations);
            for (OperationId id : ids) {
                kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(30));
            }
            List<Instant> calls = kit.jdbc().query("SELECT received_at FROM demo_tool_calls WHERE operation_id LIKE "
                    + "'cluster-budget:%' ORDER BY received_at", row -> row.getTimestamp(1).toInstant());
            assertThat(calls).hasSize(operations);
            assertThat(redis.sync().hgetall(redis.keys().toolBudget("demo.charge"))).containsKey("tokens");
            Duration span = Duration.between(calls.get(0), calls.get(calls.size() - 1));
            assertThat(span).isGreaterThanOrEqualTo(Duration.ofMillis((long) ((operations - 1) / perSecond * 1000) - 250));
        }
    }
}
