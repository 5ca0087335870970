package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.HeldTool;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.Tool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class GracefulShutdownTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static Worker.Builder worker(String name, Tool tool, Duration grace) {
        return Worker.builder(ns.database(), ns.redis()).tool(tool).consumerName(name)
                .leaseDuration(Duration.ofSeconds(1)).claimInterval(Duration.ofMillis(100)).shutdownGrace(grace);
    }

    private static OperationId dispatch(String run) {
        OperationId id = new OperationId(run, "slow", 0);
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), Clock.systemUTC());
        client.dispatch(client.newDispatch(id, "test.slow", "1", "{}", null, null, null));
        return id;
    }

    private static String column(OperationId id, String sql) {
        return ns.database().jdbc().queryOne(sql, row -> row.getString(1), id.value()).orElse(null);
    }

    @Test
    void shutdown_letsTheAttemptInFlightFinishCommitAndAck() throws Exception {
        HeldTool tool = HeldTool.answering("test.slow", "{\"by\":\"first\"}");
        Worker worker = worker("finisher", tool, Duration.ofSeconds(10)).build().start();
        OperationId id = dispatch("finish");
        assertThat(tool.awaitEntered(Duration.ofSeconds(10))).isTrue();

        CompletableFuture<Void> stopping = worker.shutdown();
        assertThat(stopping).as("waiting for the call in flight").isNotDone();
        tool.release();
        stopping.get(10, TimeUnit.SECONDS);

        assertThat(column(id, "SELECT status FROM operations WHERE operation_id = ?")).isEqualTo("SUCCEEDED");
        assertThat(ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers").getCount()).isZero();
    }

    @Test
    void shutdown_givesBackTheLeaseOfAnAttemptStillRunningAfterTheGrace_anotherWorkerTakesOverWithoutCallingBlind()
            throws Exception {
        HeldTool stuck = HeldTool.answering("test.slow", "{\"by\":\"stuck\"}");
        Worker leaving = worker("leaving", stuck, Duration.ofMillis(300)).build().start();
        OperationId id = dispatch("release");
        assertThat(stuck.awaitEntered(Duration.ofSeconds(10))).isTrue();

        leaving.shutdown().get(10, TimeUnit.SECONDS);

        assertThat(column(id, "SELECT status FROM operations WHERE operation_id = ?")).isEqualTo("RUNNING");
        Instant leaseEnd = ns.database().jdbc().queryOne("SELECT lease_expires_at FROM operations WHERE operation_id = ?",
                row -> row.getTimestamp(1), id.value()).map(Timestamp::toInstant).orElseThrow();
        assertThat(leaseEnd).isBeforeOrEqualTo(Instant.now());

        // The stuck call may still act, and this tool cannot look its key up: the successor must not call it again.
        HeldTool successorTool = HeldTool.answering("test.slow", "{\"by\":\"successor\"}").release();
        Worker successor = worker("successor", successorTool, Duration.ofSeconds(5)).build().start();
        await().atMost(Duration.ofSeconds(10)).until(() ->
                "DEAD_LETTERED".equals(column(id, "SELECT status FROM operations WHERE operation_id = ?")));
        successor.shutdown().get(10, TimeUnit.SECONDS);
        assertThat(successorTool.calls()).isZero();
        assertThat(column(id, "SELECT error_code || '/' || side_effect FROM dlq_entries WHERE operation_id = ?"))
                .isEqualTo("earlier_call_in_doubt/POSSIBLE");
    }

    @Test
    void shutdownInterruptingTheRetrySchedulerInsideARedisCall_stopsQuietly() throws Exception {
        PrintStream stderr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            // The scheduler barely sleeps between promotions, so the stop's interrupt mostly lands inside a Redis call.
            for (int i = 0; i < 5; i++) {
                Worker worker = worker("quiet-" + i, HeldTool.answering("test.slow", "{}").release(), Duration.ofSeconds(5))
                        .schedulerInterval(Duration.ofMillis(1)).build().start();
                Thread.sleep(50);
                worker.shutdown().get(10, TimeUnit.SECONDS);
            }
        } finally {
            System.setErr(stderr);
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain("WARN").doesNotContain("Exception");
    }
}
