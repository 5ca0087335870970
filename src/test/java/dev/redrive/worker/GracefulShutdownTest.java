package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.client.WorkerClient;
import dev.redrive.worker.tool.Tool;
import dev.redrive.worker.tool.ToolCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class GracefulShutdownTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    /** A tool that takes {@code duration} per call and says who answered. */
    private static final class SlowTool implements Tool {
        final CountDownLatch entered = new CountDownLatch(1);
        private final Duration duration;
        private final String who;

        SlowTool(Duration duration, String who) {
            this.duration = duration;
            this.who = who;
        }

        @Override
        public String name() {
            return "test.slow";
        }

        @Override
        public String schemaVersion() {
            return "1";
        }

        @Override
        public String execute(ToolCall call) {
            entered.countDown();
            try {
                Thread.sleep(duration.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "{\"by\":\"" + who + "\"}";
        }
    }

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
        SlowTool tool = new SlowTool(Duration.ofMillis(600), "first");
        Worker worker = worker("finisher", tool, Duration.ofSeconds(10)).build().start();
        OperationId id = dispatch("finish");
        assertThat(tool.entered.await(10, TimeUnit.SECONDS)).isTrue();

        worker.shutdown().get(10, TimeUnit.SECONDS);

        assertThat(column(id, "SELECT status FROM operations WHERE operation_id = ?")).isEqualTo("SUCCEEDED");
        assertThat(ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers").getCount()).isZero();
    }

    @Test
    void shutdown_givesBackTheLeaseOfAnAttemptStillRunningAfterTheGrace_anotherWorkerTakesOver() throws Exception {
        SlowTool stuck = new SlowTool(Duration.ofSeconds(30), "stuck");
        Worker leaving = worker("leaving", stuck, Duration.ofMillis(300)).build().start();
        OperationId id = dispatch("release");
        assertThat(stuck.entered.await(10, TimeUnit.SECONDS)).isTrue();

        leaving.shutdown().get(10, TimeUnit.SECONDS);

        assertThat(column(id, "SELECT status FROM operations WHERE operation_id = ?")).isEqualTo("RUNNING");
        Instant leaseEnd = ns.database().jdbc().queryOne("SELECT lease_expires_at FROM operations WHERE operation_id = ?",
                row -> row.getTimestamp(1), id.value()).map(Timestamp::toInstant).orElseThrow();
        assertThat(leaseEnd).isBeforeOrEqualTo(Instant.now());

        Worker successor = worker("successor", new SlowTool(Duration.ZERO, "successor"), Duration.ofSeconds(5)).build().start();
        await().atMost(Duration.ofSeconds(10)).until(() ->
                "SUCCEEDED".equals(column(id, "SELECT status FROM operations WHERE operation_id = ?")));
        successor.shutdown().get(10, TimeUnit.SECONDS);
        assertThat(column(id, "SELECT result->>'by' FROM operations WHERE operation_id = ?")).isEqualTo("successor");
    }

    @Test
    void shutdownInterruptingTheRetrySchedulerInsideARedisCall_stopsQuietly() throws Exception {
        PrintStream stderr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            // The scheduler barely sleeps between promotions, so the stop's interrupt mostly lands inside a Redis call.
            for (int i = 0; i < 5; i++) {
                Worker worker = worker("quiet-" + i, new SlowTool(Duration.ZERO, "quiet"), Duration.ofSeconds(5))
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
