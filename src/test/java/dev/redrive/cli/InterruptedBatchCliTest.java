package dev.redrive.cli;

import dev.redrive.testing.TestServers;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.BulkDeadLetters;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code redrive --group} in a JVM of its own, stopped by the signal an operator's Ctrl-C sends: the batch stops after
 * the chunk in hand and is released as STOPPED before the process exits, so {@code redrive --resume} right after takes
 * it (it had to wait for the 30 s lease), and every item is still redriven exactly once.
 */
class InterruptedBatchCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final int ENTRIES = 3_000;

    @Test
    void aSignalDuringAGroupRedrive_releasesTheBatchStoppedBetweenChunks_andResumeTakesItAtOnce() throws Exception {
        BulkDeadLetters.create(ns.database(), "run-ctrl-c", "fp-ctrl-c", ENTRIES);
        Path log = Files.createTempFile("redrive-ctrl-c", ".log");
        // Paced at 300 a second (chunks of 30), the batch takes ten seconds: time to stop it half-way.
        Process cli = TestServers.pointedAtThem(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                Main.class.getName(), "redrive", "--group", "fp-ctrl-c", "--reason", "ledger is back", "--operator",
                "alice", "--rate", "300", "-n", ns.name())
                .redirectErrorStream(true).redirectOutput(log.toFile()).directory(new File(System.getProperty("user.dir"))))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (count("SELECT COALESCE(max(done), 0) FROM redrive_batches") < 300 && System.nanoTime() < deadline
                && cli.isAlive()) {
            Thread.sleep(20);
        }
        assertThat(cli.isAlive()).as(Files.readString(log)).isTrue();

        // SIGTERM takes the JVM's shutdown path exactly as Ctrl-C's SIGINT does, and a child started without a
        // terminal may have SIGINT ignored.
        cli.destroy();
        assertThat(cli.waitFor(40, TimeUnit.SECONDS)).isTrue();

        long id = count("SELECT id FROM redrive_batches");
        String output = Files.readString(log);
        assertThat(ns.database().jdbc().queryOne("SELECT state || ' ' || COALESCE(owner, 'nobody') FROM redrive_batches",
                row -> row.getString(1))).as(output).contains("STOPPED nobody");
        long done = count("SELECT done FROM redrive_batches");
        assertThat(done).isBetween(300L, ENTRIES - 1L);
        assertThat(count("SELECT count(*) FROM redrive_commands")).as("every chunk taken was decided whole")
                .isEqualTo(count("SELECT succeeded FROM redrive_batches")).isEqualTo(done);
        assertThat(output).contains("stopping batch " + id + " after the chunk in hand",
                "batch " + id + " STOPPED: ", "go on with: redrive batch resume " + id);
        assertThat(count("SELECT count(*) FROM audit_log WHERE action = 'BATCH_STOPPED'")).isEqualTo(1);

        CliRun resumed = CliRun.in(ns, "redrive", "--resume", String.valueOf(id));

        assertThat(resumed.exit()).as(resumed.err()).isZero();
        assertThat(resumed.out()).startsWith("batch " + id + ": resuming the redrive of ")
                .contains("batch " + id + " DONE: 3,000/3,000 (100%) taken: 3,000 decided");
        assertThat(count("SELECT count(*) FROM redrive_commands")).isEqualTo(ENTRIES);
        assertThat(count("SELECT count(DISTINCT operation_id) FROM redrive_commands")).isEqualTo(ENTRIES);
        assertThat(count("SELECT count(*) FROM audit_log WHERE action = 'REDRIVE'")).isEqualTo(ENTRIES);
        List<StreamMessage<String, String>> dispatches = ns.redis().sync().xrange(ns.redis().keys().dispatch(),
                Range.create("-", "+"));
        assertThat(dispatches).hasSize(ENTRIES);
        assertThat(dispatches.stream().map(entry -> entry.getBody().get("operation_id")).distinct()).hasSize(ENTRIES);
    }

    private static long count(String sql) {
        return ns.database().jdbc().queryLong(sql);
    }
}
