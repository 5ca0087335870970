package dev.redrive.worker;

import dev.redrive.testing.TestServers;
import dev.redrive.demo.tools.EffectPolicy;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.testing.BlindRecalls;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.retry.RedisToolPauses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class KilledWorkerTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void workerKilledAfterTheEffectBeforeTheCommit_redeliveredReconciled_exactlyOneEffect() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            OperationId id = kit.dispatch("killed", "charge", "{\"amount\":42,\"fault\":\"timeout_after_apply:1\"}")
                    .operationId();

            Process doomed = killDoomedWorkerAfterTheEffect(kit, id, () -> assertThat(kit.jdbc().queryOne(
                    "SELECT status || '/' || lease_owner FROM operations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).contains("RUNNING/doomed-worker"));
            assertThat(doomed.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
            assertThat(kit.status(id)).as("nothing was committed before the kill").isEqualTo("RUNNING");

            kit.start(kit.worker("survivor", kit.charge(Duration.ofSeconds(5))));
            kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(15));
            await().atMost(Duration.ofSeconds(5)).until(() -> kit.pendingEntries() == 0);

            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(kit.callsFor(id)).as("the survivor reconciled instead of calling again").isEqualTo(1);
            assertThat(kit.jdbc().query("SELECT outcome || '/' || recorded_by FROM reconciliations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).containsExactly("APPLIED/survivor");
            assertThat(kit.jdbc().queryOne("SELECT side_effect || '/' || (result->>'idempotency_key') FROM operations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).contains("APPLIED/" + id.idempotencyKey());
            assertThat(kit.jdbc().query("SELECT consumer || '/' || fencing_token || '/' || delivery_count FROM attempts WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).containsExactly("survivor/2/2");
        }
    }

    /**
     * The survivor arrives while the tool is paused (another operation's outage): it defers the operation, and the
     * deferral must not erase that the dead worker's call is in doubt. After the pause it looks the key up and
     * succeeds from the look-up: the tool, which here applies every call, is called once.
     */
    @Test
    void workerKilledAfterTheEffect_takeoverDeferredByAPause_looksUpInsteadOfCallingAgain() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns, EffectPolicy.EVERY_CALL)) {
            OperationId id = kit.dispatch("paused", "charge", "{\"amount\":43,\"fault\":\"timeout_after_apply:1\"}")
                    .operationId();
            killDoomedWorkerAfterTheEffect(kit, id, () -> { });
            Instant pauseEnds = Instant.now().plusSeconds(4);
            new RedisToolPauses(ns.redis()).publish("demo.charge", pauseEnds, FailureClass.DEPENDENCY_DOWN);

            kit.start(kit.worker("survivor", kit.charge(Duration.ofSeconds(5))));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> "RETRY_SCHEDULED".equals(kit.status(id)));
            assertThat(kit.jdbc().queryOne("SELECT last_call FROM operations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).as("the deferral keeps the doubt").contains("IN_DOUBT");
            kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(20));

            assertThat(Instant.now()).isAfter(pauseEnds);
            assertThat(kit.callsFor(id)).as("calls of the key").isEqualTo(1);
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(BlindRecalls.in(kit.jdbc())).isEmpty();
            assertThat(kit.jdbc().query("SELECT outcome FROM reconciliations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).containsExactly("APPLIED");
        }
    }

    /**
     * Runs the doomed worker on the operation until the tool has applied its effect, runs {@code whileItHangs}, then
     * kills the worker with SIGKILL; returns it once it is gone.
     */
    private static Process killDoomedWorkerAfterTheEffect(WorkerTestKit kit, OperationId id, Runnable whileItHangs)
            throws Exception {
        Process doomed = startDoomedWorker(kit);
        try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> kit.effectsFor(id) == 1);
            whileItHangs.run();
            Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(doomed.pid())).inheritIO().start();
            assertThat(kill.waitFor()).isZero();
            assertThat(doomed.waitFor(10, TimeUnit.SECONDS)).isTrue();
            return doomed;
        } finally {
            doomed.destroyForcibly();
        }
    }

    private static Process startDoomedWorker(WorkerTestKit kit) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path log = Files.createTempFile("doomed-worker", ".log");
        return TestServers.pointedAtThem(new ProcessBuilder(java, "-cp", classpath, DoomedWorkerMain.class.getName(),
                ns.name(), kit.tools().chargeEndpoint().toString(), kit.tools().lookupEndpoint().toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .directory(new File(System.getProperty("user.dir"))))
                .start();
    }
}
