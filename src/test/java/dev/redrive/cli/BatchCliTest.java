package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.testing.DemoChargeWorker;
import dev.redrive.testing.TestDecisions;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.BulkDeadLetters;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.decision.durable.BatchSelection;
import dev.redrive.triage.decision.durable.DurableBatch;
import dev.redrive.triage.decision.durable.DurableBatches;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.JdbcDlqQueries;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code redrive batch list|show|stop|resume} against a real worker: each item's outcome is read from the facts (a
 * redrive that succeeded, one that failed again with its new DLQ entry, one a precondition blocked), and a stop asked
 * from another "terminal" ends the running batch within seconds.
 */
class BatchCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DemoChargeWorker worker;

    @BeforeAll
    static void startWorker() {
        worker = new DemoChargeWorker(ns, "batch-worker", Duration.ofMinutes(5));
    }

    @AfterAll
    static void stopWorker() {
        worker.close();
    }

    @Test
    void batchShow_tellsWhatHappenedToEachRedrive_fromTheFacts() throws Exception {
        deadLetter("b-ok", "forbidden:1");
        deadLetter("b-again", "forbidden");
        deadLetter("b-cancelled", "forbidden");
        assertThat(CliRun.in(ns, "run", "cancel", "b-cancelled", "--reason", "order withdrawn").exit()).isZero();

        CliRun run = CliRun.in(ns, "redrive", "--class", "permission", "--reason", "grant fixed", "--operator", "alice");

        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(ExitCode.BLOCKED);
        String id = batchId(run.out());
        assertThat(run.out()).contains("batch " + id + " outcomes now: 3 item(s): 1 blocked (run_active 1)");
        awaitStatus("b-ok:charge:0", "SUCCEEDED");
        awaitStatus("b-again:charge:0", "DEAD_LETTERED");
        long newEntry = ns.database().jdbc().queryLong(
                "SELECT id FROM dlq_entries WHERE operation_id = 'b-again:charge:0' AND attempt = 2");

        CliRun show = CliRun.in(ns, "batch", "show", id);

        assertThat(show.exit()).as(show.err()).isZero();
        assertThat(show.out())
                .containsPattern("b-ok:charge:0\\s+\\d+\\s+SUCCEEDED\\s+redriven as attempt 2, then SUCCEEDED")
                .containsPattern("b-again:charge:0\\s+\\d+\\s+FAILED_AGAIN\\s+redriven as attempt 2, then failed "
                        + "again: DLQ entry " + newEntry)
                .containsPattern("b-cancelled:charge:0\\s+\\d+\\s+BLOCKED\\s+blocked by run_active: run "
                        + "b-cancelled is CANCELLED")
                .contains("3 item(s): 1 blocked (run_active 1), 1 succeeded, 1 failed again");
        JsonNode json = TriageJson.parse(CliRun.in(ns, "batch", "show", id, "--json").out());
        assertThat(json.get("batch").get("state").asText()).isEqualTo("DONE");
        assertThat(json.get("outcomes").get("FAILED_AGAIN").asInt()).isEqualTo(1);
        JsonNode again = item(json, "b-again:charge:0");
        assertThat(again.get("outcome").asText()).isEqualTo("FAILED_AGAIN");
        assertThat(again.get("new_dlq_entry_id").asLong()).isEqualTo(newEntry);
        assertThat(item(json, "b-cancelled:charge:0").get("blocked_by").get(0).asText()).isEqualTo("run_active");
        assertThat(CliRun.in(ns, "batch", "list").out()).containsPattern(id + "\\s+DONE\\s+REDRIVE");

        // The batch's report says the same, before the evidence of its operations.
        Path markdown = Files.createTempFile("batch-report", ".md");
        CliRun report = CliRun.in(ns, "report", "--batch", id, "--format", "md", "--out", markdown.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out()).startsWith("Markdown report on batch " + id + " (3 item(s)) written to ");
        String written = Files.readString(markdown);
        assertThat(written).contains("Batch " + id, "outcomes now", "3 item(s): 1 blocked (run_active 1), 1 succeeded, "
                        + "1 failed again", "redriven as attempt 2, then failed again: DLQ entry " + newEntry,
                "blocked by run_active", "by status", "Operation b-again:charge:0");
        assertThat(written.indexOf("Batch " + id)).isLessThan(written.indexOf("Operation b-ok:charge:0"));
        Path jsonReport = Files.createTempFile("batch-report", ".json");
        assertThat(CliRun.in(ns, "report", "--batch", id, "--format", "json", "--out", jsonReport.toString()).exit())
                .isZero();
        JsonNode reported = TriageJson.parse(Files.readString(jsonReport));
        assertThat(reported.get("scope").asText()).isEqualTo("batch");
        assertThat(reported.get("batch").get("items")).hasSize(3);
        assertThat(reported.get("operations")).hasSize(3);
    }

    @Test
    void batchStop_fromAnotherTerminal_endsTheRunningBatchWithinSeconds_andResumeFinishesIt() throws Exception {
        BulkDeadLetters.create(ns.database(), "run-paced", "fp-paced", 12);
        CompletableFuture<CliRun> running = CompletableFuture.supplyAsync(() -> CliRun.in(ns, "redrive", "--group",
                "fp-paced", "--rate", "2", "--reason", "slowly", "--operator", "alice"));
        await().atMost(Duration.ofSeconds(20)).until(() -> ns.database().jdbc().queryLong(
                "SELECT count(*) FROM redrive_batches WHERE state = 'RUNNING' AND owner IS NOT NULL AND done > 0") == 1);
        long id = ns.database().jdbc().queryLong("SELECT id FROM redrive_batches WHERE state = 'RUNNING'");

        long askedAt = System.nanoTime();
        CliRun stop = CliRun.in(ns, "batch", "stop", Long.toString(id));
        CliRun stopped = running.get(10, TimeUnit.SECONDS);

        assertThat(Duration.ofNanos(System.nanoTime() - askedAt)).isLessThan(Duration.ofSeconds(5));
        assertThat(stop.exit()).as(stop.err()).isZero();
        assertThat(stop.out()).startsWith("batch " + id + " STOPPED at ").contains("go on with: redrive batch resume " + id);
        assertThat(stopped.out()).containsPattern("batch " + id + " STOPPED: \\d+/12 \\(\\d+%\\) taken");
        assertThat(stopped.exit()).as("a stopped batch is not done: scripts tell it by its own code").isEqualTo(ExitCode.STOPPED);
        long done = ns.database().jdbc().queryLong("SELECT done FROM redrive_batches WHERE id = ?", id);
        assertThat(done).isLessThan(12);
        assertThat(CliRun.in(ns, "batch", "stop", Long.toString(id)).exit()).isEqualTo(ExitCode.BLOCKED);

        CliRun resumed = CliRun.in(ns, "batch", "resume", Long.toString(id));

        assertThat(resumed.exit()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("batch " + id + ": resuming the redrive of").contains("batch " + id + " DONE: 12/12");
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_batch_items WHERE batch_id = ?", id))
                .isEqualTo(12);
        assertThat(CliRun.in(ns, "batch", "show", "424242").err()).contains("no batch 424242; redrive batch list shows them");
    }

    @Test
    void aGroupDecidedElsewhereBeforeTheBatchReachedIt_saysSo_andExitsThree() {
        BulkDeadLetters.create(ns.database(), "run-twice", "fp-twice", 4);
        // The second batch is recorded (4 open items counted) before the first runs, as two terminals racing.
        DurableBatches batches = new DurableBatches(TestDecisions.of(ns), new JdbcDlqQueries(ns.database()),
                Clock.systemUTC(), Sleeper.SYSTEM);
        DurableBatch late = batches.start(DecisionKind.REDRIVE, BatchSelection.matching(DlqFilter.builder()
                .fingerprint("fp-twice").build()), new BatchOptions("bob", "again", null, 0, false));
        CliRun first = CliRun.in(ns, "redrive", "--group", "fp-twice", "--reason", "once", "--operator", "alice");
        assertThat(first.exit()).as(first.err()).isZero();

        CliRun second = CliRun.in(ns, "batch", "resume", Long.toString(late.id()));

        assertThat(second.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(second.out()).contains("batch " + late.id() + " DONE: 0/4 (100%) taken: 0 decided, 0 blocked, 0 failed; "
                + "4 item(s) counted at the start were decided elsewhere, or no longer matched, before the batch reached them");
        CliRun shown = CliRun.in(ns, "batch", "show", Long.toString(late.id()), "--json");
        assertThat(TriageJson.parse(shown.out()).findPath("decided_elsewhere").asLong()).as(shown.out()).isEqualTo(4);
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operator = 'bob'"))
                .isZero();
    }

    private static void deadLetter(String run, String fault) {
        CliRun dispatch = CliRun.in(ns, "dispatch", "--run", run, "--node", "charge", "--tool", "demo.charge",
                "--payload", "{\"amount\":3,\"fault\":\"" + fault + "\"}");
        assertThat(dispatch.exit()).as(dispatch.err()).isZero();
        awaitStatus(run + ":charge:0", "DEAD_LETTERED");
    }

    private static void awaitStatus(String operationId, String status) {
        await().atMost(Duration.ofSeconds(20)).until(() -> ns.database().jdbc().queryOne(
                "SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), operationId)
                .orElse("").equals(status));
    }

    private static String batchId(String out) {
        Matcher started = Pattern.compile("batch (\\d+): redrive of ").matcher(out);
        assertThat(started.find()).as(out).isTrue();
        return started.group(1);
    }

    private static JsonNode item(JsonNode json, String operationId) {
        for (JsonNode item : json.get("items")) {
            if (item.get("operation_id").asText().equals(operationId)) {
                return item;
            }
        }
        throw new AssertionError("no item " + operationId + " in " + json);
    }
}
