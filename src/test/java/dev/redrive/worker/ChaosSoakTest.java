package dev.redrive.worker;

import dev.redrive.broker.Redis;
import dev.redrive.demo.tools.DemoTool;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.demo.tools.EffectPolicy;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.store.Jdbc;
import dev.redrive.testing.BlindRecalls;
import dev.redrive.testing.RedisServerProcess;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.retry.RedisToolPauses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three worker processes under chaos — SIGKILL and restart, SIGSTOP past the lease, SIGKILL while a tool is paused,
 * Redis killed and restarted empty — while a producer dispatches work with random faults (rate limits, outages of a
 * tool, lost answers before and after the effect, invalid input, look-ups that cannot tell). The demo tools apply every
 * call (they ignore the idempotency key, as a tool that is not idempotent would), so a second call shows. Only global
 * invariants are checked, at the end, and printed: every operation settled (succeeded, or dead-lettered with its
 * evidence), none waiting or running; no blind recall (a call for a key whose previous call was not followed by a
 * look-up answering "not applied"); no idempotency key applied twice; every success's result is the applied effect's;
 * no operation called over and over.
 * <p>
 * {@code mvn verify} runs the CI variant ({@value #CI_OPERATIONS} operations). The long variant:
 * {@code mvn -Dtest=ChaosSoakTest -Dredrive.soak.operations=100000 test}; {@code -Dredrive.soak.seed=N} replays a run.
 */
class ChaosSoakTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    static final int CI_OPERATIONS = 5000;
    private static final int OPERATIONS = Integer.getInteger("redrive.soak.operations", CI_OPERATIONS);
    private static final long SEED = Long.getLong("redrive.soak.seed", System.nanoTime());
    private static final int WORKERS = 3;
    private static final String[] FAULTS = {"transient:1", "transient:2", "rate_limit:1:1", "dependency_down:1",
            "timeout_after_apply:1", "timeout_before_apply:1", "invalid", "lookup_down:1;timeout_after_apply:1"};

    private final Random random = new Random(SEED);
    private final Map<String, Integer> chaos = new LinkedHashMap<>();

    @Test
    void underChaos_everyOperationSettlesOnce() throws Exception {
        long started = System.nanoTime();
        List<WorkerProcess> workers = new ArrayList<>();
        try (RedisServerProcess server = RedisServerProcess.start();
             Redis redis = Redis.connect(ns.configWithRedis(server.uri()));
             DemoToolServer tools = DemoToolServer.start(ns.database(), Clock.systemUTC(), EffectPolicy.EVERY_CALL)) {
            String toolsBase = tools.endpoint(DemoTool.CHARGE).resolve("/").toString();
            for (int i = 0; i < WORKERS; i++) {
                workers.add(WorkerProcess.start(ns.name(), server.uri(), toolsBase, "soak-" + i));
            }
            WorkerClient client = new WorkerClient(ns.database(), redis, Clock.systemUTC());
            AtomicInteger produced = new AtomicInteger();
            Thread producer = new Thread(() -> produce(client, produced), "soak-producer");
            producer.start();
            int redisRestarts = Math.max(2, OPERATIONS / 10_000);
            int restarted = 0;
            while (producer.isAlive()) {
                Thread.sleep(1000 + random.nextInt(2000));
                if (restarted < redisRestarts && produced.get() >= (long) OPERATIONS * (restarted + 1) / (redisRestarts + 1)) {
                    server.restartEmpty(Duration.ofMillis(300 + random.nextInt(700)));
                    count("Redis restarted empty");
                    restarted++;
                } else {
                    act(workers, redis);
                }
            }
            producer.join();
            for (WorkerProcess worker : workers) {
                worker.cont();
                if (!worker.isAlive()) {
                    worker.restart();
                }
            }
            long drained = System.nanoTime();
            try {
                await().atMost(Duration.ofMinutes(Math.max(2, OPERATIONS / 5000))).pollInterval(Duration.ofMillis(500))
                        .until(() -> waiting() == 0);
            } catch (RuntimeException e) {
                workers.forEach(worker -> System.out.println(worker.name() + ":\n" + worker.logTail()));
                throw new AssertionError("still waiting after the chaos: " + statuses() + " (seed " + SEED + ")", e);
            }
            Invariants invariants = Invariants.read(ns.database().jdbc());
            BlindRecalls.in(ns.database().jdbc()).forEach(key -> System.out.println(history(key)));
            System.out.printf("chaos soak (seed %d): %d operations in %d s (%d s to drain after the chaos); chaos %s; %s%n",
                    SEED, produced.get(), Duration.ofNanos(System.nanoTime() - started).toSeconds(),
                    Duration.ofNanos(System.nanoTime() - drained).toSeconds(), chaos, invariants);
            assertThat(produced.get()).isEqualTo(OPERATIONS);
            invariants.check(OPERATIONS);
        } finally {
            for (WorkerProcess worker : workers) {
                worker.close();
            }
        }
    }

    /** Dispatches every operation once; a dispatch that fails (Redis down) is tried again, as a runtime would. */
    private void produce(WorkerClient client, AtomicInteger produced) {
        Random faults = new Random(SEED + 1);
        DemoTool[] tools = DemoTool.values();
        for (int i = 0; i < OPERATIONS; i++) {
            OperationId id = new OperationId("soak-" + (i / 500), "op" + i, 0);
            String fault = faults.nextInt(100) < 25 ? ",\"fault\":\"" + FAULTS[faults.nextInt(FAULTS.length)] + "\"" : "";
            String payload = "{\"amount\":" + (i % 97 + 1) + fault + "}";
            DemoTool tool = tools[i % tools.length];
            while (true) {
                try {
                    client.dispatch(client.newDispatch(id, tool.toolName(), "1", payload, "trace-" + i, null, null));
                    break;
                } catch (RuntimeException redisOrDatabaseDown) {
                    pause(200);
                }
            }
            produced.incrementAndGet();
            if (i % 50 == 49) {
                pause(100);
            }
        }
    }

    /** One random act of chaos on a worker, or a pause in the chaos. */
    private void act(List<WorkerProcess> workers, Redis redis) throws InterruptedException {
        int dice = random.nextInt(100);
        WorkerProcess victim = workers.get(random.nextInt(workers.size()));
        if (dice < 25) {
            victim.kill();
            victim.restart();
            count("kill -9 + restart");
        } else if (dice < 45) {
            // As a 503 or 429 of any operation pauses a tool for the namespace: the killed worker's operations are
            // taken over while it lasts, deferred, and claimed again once it ends.
            DemoTool tool = DemoTool.values()[random.nextInt(DemoTool.values().length)];
            try {
                new RedisToolPauses(redis).publish(tool.toolName(), Instant.now().plusMillis(1500 + random.nextInt(2500)),
                        FailureClass.DEPENDENCY_DOWN);
            } catch (RuntimeException redisDown) {
                return;
            }
            victim.kill();
            victim.restart();
            count("kill -9 while a tool is paused");
        } else if (dice < 70) {
            victim.pause();
            Thread.sleep(SoakWorkerMain.LEASE.toMillis() + 1000);
            victim.cont();
            count("SIGSTOP past the lease");
        }
    }

    private void count(String act) {
        chaos.merge(act, 1, Integer::sum);
    }

    /** What the tools and the store saw of one idempotency key, in order: printed for a blind recall. */
    private static String history(String key) {
        StringBuilder history = new StringBuilder("blind recall of key " + key + ":\n");
        Jdbc jdbc = ns.database().jdbc();
        jdbc.query("""
                SELECT seq, received_at, 'call attempt ' || attempt || ' -> ' || http_status || coalesce(' ' || fault, '')
                  FROM demo_tool_calls WHERE idempotency_key = ?
                UNION ALL
                SELECT seq, received_at, 'look-up -> ' || http_status FROM demo_tool_lookups WHERE idempotency_key = ?
                 ORDER BY 1""", row -> history.append("  #").append(row.getLong(1)).append(' ')
                .append(row.getString(2)).append(' ').append(row.getString(3)).append('\n'), key, key);
        jdbc.query("""
                SELECT a.attempt, a.consumer, a.fencing_token, a.started_at, a.finished_at, a.outcome, a.error_code,
                       a.side_effect
                  FROM attempts a JOIN operations o ON o.operation_id = a.operation_id
                 WHERE o.idempotency_key = ? ORDER BY a.id""", row -> history.append("  attempt ").append(row.getInt(1))
                .append(" by ").append(row.getString(2)).append(" token ").append(row.getLong(3)).append(' ')
                .append(row.getString(4)).append(" .. ").append(row.getString(5)).append(' ').append(row.getString(6))
                .append(' ').append(row.getString(7)).append(" side effect ").append(row.getString(8)).append('\n'), key);
        return history.toString();
    }

    private static long waiting() {
        return ns.database().jdbc().queryLong(
                "SELECT count(*) FROM operations WHERE status IN ('PENDING', 'RUNNING', 'RETRY_SCHEDULED')");
    }

    private static Map<String, Long> statuses() {
        Map<String, Long> counts = new LinkedHashMap<>();
        ns.database().jdbc().query("SELECT status, count(*) FROM operations GROUP BY status ORDER BY status",
                row -> counts.put(row.getString(1), row.getLong(2)));
        return counts;
    }

    /** What must hold at the end, read in one go. */
    private record Invariants(Map<String, Long> statuses, long blindRecalls, long keysAppliedTwice, long succeededWithoutTheirEffect,
                              long resultsUnlikeTheEffect, long deadLetteredWithoutEvidence, long appliedButNotSucceeded,
                              long deadLetteredAtDeliveryLimit,
                              long maxCallsPerKey, long maxAttemptsPerOperation) {

        static Invariants read(Jdbc jdbc) {
            Map<String, Long> statuses = new LinkedHashMap<>();
            jdbc.query("SELECT status, count(*) FROM operations GROUP BY status ORDER BY status",
                    row -> statuses.put(row.getString(1), row.getLong(2)));
            return new Invariants(statuses, BlindRecalls.in(jdbc).size(),
                    jdbc.queryLong("SELECT count(*) FROM (SELECT idempotency_key FROM demo_tool_effects "
                            + "GROUP BY idempotency_key HAVING count(*) > 1) twice"),
                    jdbc.queryLong("SELECT count(*) FROM operations o WHERE o.status = 'SUCCEEDED' AND NOT EXISTS "
                            + "(SELECT 1 FROM demo_tool_effects e WHERE e.idempotency_key = o.idempotency_key)"),
                    jdbc.queryLong("SELECT count(*) FROM operations o JOIN demo_tool_effects e "
                            + "ON e.idempotency_key = o.idempotency_key WHERE o.status = 'SUCCEEDED' AND o.result <> e.result"),
                    jdbc.queryLong("SELECT count(*) FROM operations o WHERE o.status = 'DEAD_LETTERED' AND NOT EXISTS "
                            + "(SELECT 1 FROM dlq_entries d WHERE d.operation_id = o.operation_id AND d.attempt = o.attempt)"),
                    // Applied but dead-lettered is allowed only where the side effect was left POSSIBLE (nobody could
                    // tell); anywhere else the worker lost track of an effect.
                    jdbc.queryLong("SELECT count(*) FROM operations o JOIN demo_tool_effects e "
                            + "ON e.idempotency_key = o.idempotency_key WHERE o.status <> 'SUCCEEDED' "
                            + "AND o.side_effect <> 'POSSIBLE'"),
                    jdbc.queryLong("SELECT count(*) FROM dlq_entries WHERE error_code = 'delivery_limit'"),
                    jdbc.queryLong("SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM demo_tool_calls "
                            + "GROUP BY idempotency_key) calls"),
                    jdbc.queryLong("SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM attempts "
                            + "GROUP BY operation_id) attempts"));
        }

        void check(int operations) {
            assertThat(statuses.values().stream().mapToLong(Long::longValue).sum()).as("operations recorded")
                    .isEqualTo(operations);
            assertThat(statuses).as("settled").containsOnlyKeys("SUCCEEDED", "DEAD_LETTERED");
            assertThat(blindRecalls).as("blind recalls").isZero();
            assertThat(keysAppliedTwice).as("idempotency keys applied twice").isZero();
            assertThat(succeededWithoutTheirEffect).as("successes without an applied effect").isZero();
            assertThat(resultsUnlikeTheEffect).as("successes whose result is not the effect's").isZero();
            assertThat(deadLetteredWithoutEvidence).as("dead letters without a DLQ entry").isZero();
            assertThat(appliedButNotSucceeded).as("applied effects the worker lost track of").isZero();
            // A key is called at most once per attempt (retries, takeovers after a kill) plus reconciliation look-ups,
            // which are not calls: a hot loop would show as dozens.
            assertThat(maxCallsPerKey).as("most calls of one key").isLessThanOrEqualTo(10);
            assertThat(maxAttemptsPerOperation).as("most attempts of one operation").isLessThanOrEqualTo(10);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
