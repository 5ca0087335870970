package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

            Process doomed = startDoomedWorker(kit);
            try {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                        .until(() -> kit.effectsFor(id) == 1);
                assertThat(kit.jdbc().queryOne("SELECT status || '/' || lease_owner FROM operations WHERE operation_id = ?",
                        row -> row.getString(1), id.value())).contains("RUNNING/doomed-worker");
                Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(doomed.pid())).inheritIO().start();
                assertThat(kill.waitFor()).isZero();
                assertThat(doomed.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(doomed.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
            } finally {
                doomed.destroyForcibly();
            }
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

    private static Process startDoomedWorker(WorkerTestKit kit) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path log = Files.createTempFile("doomed-worker", ".log");
        return new ProcessBuilder(java, "-cp", classpath, DoomedWorkerMain.class.getName(), ns.name(),
                kit.tools().chargeEndpoint().toString(), kit.tools().lookupEndpoint().toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .directory(new File(System.getProperty("user.dir")))
                .start();
    }
}
