package dev.redrive.worker;

import dev.redrive.config.RedriveConfig;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.testing.PostgresServerProcess;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL, which holds every fact, crashes (immediate shutdown: backends killed, no checkpoint) while two workers
 * are busy, and comes back on the same port after crash recovery. The demo tools keep their ledger in the same
 * server, so for as long their calls fail too, as a dependency outage would. Without a restart of either worker,
 * every operation ends SUCCEEDED with exactly one effect, and the outage costs an operation at most one more attempt
 * and one more tool call.
 */
class PostgresRestartTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration DOWN = Duration.ofMillis(1500);
    /** Operations that succeed before the crash, and that are dispatched after the restart. */
    private static final int LOAD = 20;
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    @Test
    void postgresCrashedAndRestartedUnderLoad_everyOperationSucceedsExactlyOnce_withoutAWorkerRestart() throws Exception {
        try (PostgresServerProcess server = PostgresServerProcess.start();
             Database database = Database.open(config(server.jdbcUrl()), 16)) {
            database.migrate();
            try (WorkerTestKit kit = new WorkerTestKit(database, ns.redis())) {
                // The tools wait up to the pool's 5 s connection timeout for their ledger while the server is down;
                // a longer request timeout lets them answer (500: transient) rather than leave the effect unknown.
                List<Worker> workers = List.of(kit.start(kit.worker("pg-a", kit.charge(CALL_TIMEOUT))),
                        kit.start(kit.worker("pg-b", kit.charge(CALL_TIMEOUT))));
                List<OperationId> dispatched = new CopyOnWriteArrayList<>();
                Map<OperationId, Integer> plannedCalls = new ConcurrentHashMap<>();
                AtomicInteger refusedDispatches = new AtomicInteger();
                AtomicBoolean producing = new AtomicBoolean(true);
                Thread producer = new Thread(() -> {
                    for (int i = 0; producing.get(); i++) {
                        OperationId id = new OperationId("pg-restart", "op" + i, 0);
                        String fault = i % 7 == 0 ? "transient:1" : i % 11 == 0 ? "rate_limit:1:1" : null;
                        var envelope = kit.client().newDispatch(id, "demo.charge", "1", "{\"amount\":" + i
                                + (fault == null ? "" : ",\"fault\":\"" + fault + "\"") + "}", null, null, null);
                        // While PostgreSQL is down the dispatch cannot be recorded; a runtime dispatches it again,
                        // and a repeat of a dispatch that was recorded after all is answered as a repeat.
                        while (true) {
                            try {
                                kit.client().dispatch(envelope);
                                break;
                            } catch (RuntimeException postgresDown) {
                                refusedDispatches.incrementAndGet();
                                pause(50);
                            }
                        }
                        dispatched.add(id);
                        plannedCalls.put(id, fault == null ? 1 : 2);
                        pause(15);
                    }
                }, "producer");
                producer.setDaemon(true);
                producer.start();
                long unsettledAtCrash;
                long back;
                try {
                    await().atMost(Duration.ofSeconds(20)).until(() -> succeeded(kit) >= LOAD);
                    unsettledAtCrash = kit.count("SELECT count(*) FROM operations WHERE status <> 'SUCCEEDED'");

                    server.restartAfterCrash(DOWN);
                    back = System.nanoTime();
                    int dispatchedWhenBack = dispatched.size();
                    // Load goes on after the restart, through connections the pools must first replace.
                    await().atMost(Duration.ofSeconds(20)).until(() -> dispatched.size() >= dispatchedWhenBack + LOAD);
                } finally {
                    producing.set(false);
                    producer.join(Duration.ofSeconds(30).toMillis());
                }
                assertThat(producer.isAlive()).as("the producer still retrying a dispatch").isFalse();

                await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                        .until(() -> succeeded(kit) == dispatched.size());
                long recoveredWithin = Duration.ofNanos(System.nanoTime() - back).toMillis();
                await().atMost(Duration.ofSeconds(10)).until(() -> kit.pendingEntries() == 0);

                assertThat(kit.count("SELECT count(*) FROM operations")).as("operations recorded")
                        .isEqualTo(dispatched.size());
                Map<String, Long> effects = perKey(kit, "SELECT idempotency_key, count(*) FROM demo_tool_effects GROUP BY 1");
                Map<String, Long> calls = perKey(kit, "SELECT idempotency_key, count(*) FROM demo_tool_calls GROUP BY 1");
                Map<String, Long> attempts = perKey(kit, "SELECT o.idempotency_key, count(*) FROM attempts a "
                        + "JOIN operations o USING (operation_id) GROUP BY 1");
                assertThat(effects).as("one effect per dispatched operation, none other").hasSameSizeAs(dispatched);
                List<String> overspent = new ArrayList<>();
                int extraAttempts = 0;
                int extraCalls = 0;
                for (OperationId id : dispatched) {
                    String key = id.idempotencyKey();
                    assertThat(effects.get(key)).as("effects of %s", id).isEqualTo(1L);
                    // An operation needs one attempt and one call, two with a one-time fault. The outage may cost
                    // it one more of each: the attempt it was on when the server went away failed or was not
                    // recorded, and the next one reconciles or calls again. More would be a loop, not a recovery.
                    int planned = plannedCalls.get(id);
                    long spentAttempts = attempts.getOrDefault(key, 0L);
                    long spentCalls = calls.getOrDefault(key, 0L);
                    extraAttempts += (int) Math.max(0, spentAttempts - planned);
                    extraCalls += (int) Math.max(0, spentCalls - planned);
                    if (spentAttempts > planned + 1 || spentCalls > planned + 1) {
                        overspent.add(kit.describe(id));
                    }
                }
                assertThat(overspent).as("operations with more than one attempt or call beyond their faults").isEmpty();
                assertThat(workers).allSatisfy(worker -> assertThat(worker.state()).isEqualTo(WorkerState.RUNNING));
                System.out.printf("postgres restart: %d operations (%d unsettled at the crash, %d dispatches refused "
                                + "while down), all succeeded once %d ms after PostgreSQL came back; %d extra attempts, "
                                + "%d extra calls%n", dispatched.size(), unsettledAtCrash, refusedDispatches.get(),
                        recoveredWithin, extraAttempts, extraCalls);
            }
        }
    }

    private static long succeeded(WorkerTestKit kit) {
        return kit.count("SELECT count(*) FROM operations WHERE status = 'SUCCEEDED'");
    }

    private static Map<String, Long> perKey(WorkerTestKit kit, String sql) {
        Map<String, Long> counts = new HashMap<>();
        kit.jdbc().query(sql, row -> counts.put(row.getString(1), row.getLong(2)));
        return counts;
    }

    private static RedriveConfig config(String pgUrl) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("REDRIVE_PG_URL", pgUrl);
        env.put("REDRIVE_PG_USER", "postgres");
        env.put("REDRIVE_PG_PASSWORD", "");
        return RedriveConfig.fromEnvironment(env).withNamespace(ns.name());
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
