package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.MessageDeadLetters;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Dead letters the worker entered for messages it could not take as dispatches have no operation: the operator
 * reaches them by their entry id, on the command line as everywhere else. The entries are made the real way: a
 * publisher adds broken dispatches to the stream and a worker dead-letters them.
 */
class DeadLetterWithoutOperationCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final String SECRET = "hunter2-do-not-print";

    private static long toShow;
    private static long toDiscard;
    private static long toResolve;
    private static long conflict;
    private static OperationId succeeded;

    @BeforeAll
    static void aPublisherSendsBrokenDispatches_andAWorkerDeadLettersThem() {
        MessageDeadLetters letters = new MessageDeadLetters(ns);
        WorkerClient client = letters.client();
        List<String> malformed = new ArrayList<>();
        for (String node : List.of("show", "discard", "resolve")) {
            malformed.add(letters.publishWithoutTool(new OperationId("legacy", node, 0),
                    "{\"amount\":5,\"password\":\"" + SECRET + "\"}", "trace-legacy-" + node));
        }
        succeeded = new OperationId("legacy", "charge", 0);
        client.dispatch(client.newDispatch(succeeded, "test.ok", "1", "{\"amount\":1}", "trace-legacy", null, null));
        String reused = client.publish(client.newDispatch(succeeded, "test.ok", "1", "{\"amount\":999}", "trace-legacy", null, null));

        Worker worker = letters.startWorker(new AnswersAtOnce("test.ok"));
        try {
            toShow = letters.awaitEntry(malformed.get(0));
            toDiscard = letters.awaitEntry(malformed.get(1));
            toResolve = letters.awaitEntry(malformed.get(2));
            conflict = letters.awaitEntry(reused);
            await().atMost(Duration.ofSeconds(20)).until(() -> "SUCCEEDED".equals(status(succeeded.value())));
        } finally {
            worker.shutdown().join();
        }
    }

    private static CliRun run(String... args) {
        return CliRun.in(ns, args);
    }

    private static String query(String sql, Object... params) {
        return ns.database().jdbc().queryOne(sql, row -> row.getString(1), params).orElse(null);
    }

    private static String status(String operationId) {
        return query("SELECT status FROM operations WHERE operation_id = ?", operationId);
    }

    @Test
    void opShowEntry_printsCodeErrorRawMessageReceivedTimeAndDecision_withTheSecretMasked() {
        CliRun text = run("op", "show", "--entry", String.valueOf(toShow));
        CliRun json = run("op", "show", "--entry", String.valueOf(toShow), "--json");

        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("dlq entry   " + toShow + " (version 0)", "INVALID_INPUT invalid_envelope: tool is missing",
                "received    ", "decision    OPEN", "operation   none: the message was dead-lettered as itself",
                "operation_id legacy:show:0", "raw message ", "[redacted]", "audit:");
        assertThat(json.exit()).isZero();
        JsonNode entry = TriageJson.parse(json.out());
        assertThat(entry.path("id").asLong()).isEqualTo(toShow);
        assertThat(entry.path("error_code").asText()).isEqualTo("invalid_envelope");
        assertThat(entry.path("decision_state").asText()).isEqualTo("OPEN");
        assertThat(entry.path("entered_at").asText()).isNotEmpty();
        assertThat(entry.path("raw_message").path("payload").asText()).contains("\"password\":\"[redacted]\"");
        assertThat(entry.path("operation").isNull()).isTrue();
        assertThat(text.out() + json.out()).doesNotContain(SECRET);
    }

    @Test
    void reportEntry_writesHtmlPdfAndMarkdown_withoutAnAttemptTimeline(@TempDir Path dir) throws Exception {
        for (String format : List.of("html", "md", "json")) {
            Path file = dir.resolve("entry." + format);
            CliRun report = run("report", "--entry", String.valueOf(toShow), "--format", format, "--out", file.toString());

            assertThat(report.exit()).as(format).isZero();
            assertThat(report.out()).contains("report on 1 DLQ entry without an operation written to");
            String written = Files.readString(file);
            assertThat(written).as(format).contains("invalid_envelope", "tool is missing", "legacy:show:0")
                    .doesNotContain(SECRET);
            if (!format.equals("json")) {
                assertThat(written).as(format).contains("DLQ entry " + toShow + " (no operation)",
                        "No attempts: the message was dead-lettered when it was read",
                        "Redrive preconditions do not apply", "[redacted]");
            }
        }
        Path pdf = dir.resolve("entry.pdf");
        assertThat(run("report", "--entry", String.valueOf(toShow), "--format", "pdf", "--out", pdf.toString()).exit()).isZero();
        try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
            assertThat(new PDFTextStripper().getText(document)).contains("invalid_envelope", "No attempts")
                    .doesNotContain(SECRET);
        }
    }

    @Test
    void discardEntry_recordsDecisionAndAuditTogether_thenAnotherDecisionIsExitThreeNamingWhoAndWhen() {
        CliRun discarded = run("discard", "--entry", String.valueOf(toDiscard), "--reason", "legacy runtime fixed",
                "--operator", "alice");

        assertThat(discarded.exit()).isZero();
        assertThat(discarded.out()).startsWith("entry " + toDiscard + ": DONE discarded by alice");
        assertThat(query("SELECT decision_state || '/' || decided_by || '/' || decision_reason FROM dlq_entries WHERE id = ?",
                toDiscard)).isEqualTo("DISCARDED/alice/legacy runtime fixed");
        assertThat(query("""
                SELECT actor || '/' || action || '/' || coalesce(operation_id, 'none') || '/' || reason
                  FROM audit_log WHERE dlq_entry_id = ?""", toDiscard)).isEqualTo("alice/DISCARD/none/legacy runtime fixed");

        CliRun again = run("resolve", "--entry", String.valueOf(toDiscard), "--reason", "me too", "--operator", "bob");
        assertThat(again.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(again.out()).contains("ALREADY_DECIDED by alice at ", "(DISCARDED: legacy runtime fixed)");
        assertThat(query("SELECT count(*) FROM audit_log WHERE dlq_entry_id = ?", toDiscard)).isEqualTo("1");
        assertThat(run("op", "show", "--entry", String.valueOf(toDiscard)).out())
                .contains("decision    DISCARDED by alice at ", "alice (login " + ns.config().pgUser() + ") DISCARD");
    }

    @Test
    void resolveEntry_marksItResolvedAlone_keepingAGivenResultInTheAuditLog() {
        CliRun resolved = run("resolve", "--entry", String.valueOf(toResolve), "--reason", "republished by hand",
                "--operator", "carol", "--result", "{\"republished_as\":\"legacy:resolve:1\"}", "--json");

        assertThat(resolved.exit()).isZero();
        JsonNode result = TriageJson.parse(resolved.out());
        assertThat(result.path("outcome").asText()).isEqualTo("DONE");
        assertThat(result.path("dlq_entry_id").asLong()).isEqualTo(toResolve);
        assertThat(result.path("operation_id").isNull()).isTrue();
        assertThat(result.path("preconditions").path("results").get(0).path("explanation").asText())
                .contains("no operation: the operation's checks do not apply");
        assertThat(query("SELECT decision_state FROM dlq_entries WHERE id = ?", toResolve)).isEqualTo("RESOLVED");
        assertThat(query("SELECT details->'result'->>'republished_as' FROM audit_log WHERE dlq_entry_id = ?", toResolve))
                .isEqualTo("legacy:resolve:1");
    }

    @Test
    void anEntryNamingAnOperationItDoesNotBelongTo_isDecidedAlone_leavingThatOperationAsItWas() {
        CliRun shown = run("op", "show", "--entry", String.valueOf(conflict));
        assertThat(shown.out()).contains("idempotency_conflict", "operation   none", "operation_id " + succeeded.value());

        CliRun discarded = run("discard", "--entry", String.valueOf(conflict), "--reason", "duplicate publish", "--operator", "dan");

        assertThat(discarded.exit()).isZero();
        assertThat(query("SELECT decision_state FROM dlq_entries WHERE id = ?", conflict)).isEqualTo("DISCARDED");
        assertThat(status(succeeded.value())).isEqualTo("SUCCEEDED");
    }

    @Test
    void anEntryOfAnOperation_showsAndDecidesThatOperation() {
        DeadLetterFixture fixture = new DeadLetterFixture(ns.database());
        Created op = fixture.deadLettered("run-entry", "charge").create();

        CliRun shown = run("op", "show", "--entry", String.valueOf(op.dlqEntryId()));
        assertThat(shown.exit()).isZero();
        assertThat(shown.out()).contains("dlq entry   " + op.dlqEntryId(), "operation   " + op.operationId() + " (below)",
                "attempts:", "#3 DEAD_LETTERED");
        assertThat(TriageJson.parse(run("op", "show", "--entry", String.valueOf(op.dlqEntryId()), "--json").out())
                .path("operation").path("operation_id").asText()).isEqualTo(op.operationId());

        CliRun discarded = run("discard", "--entry", String.valueOf(op.dlqEntryId()), "--reason", "customer left",
                "--operator", "erin");
        assertThat(discarded.exit()).isZero();
        assertThat(discarded.out()).startsWith(op.operationId() + ": DONE");
        assertThat(status(op.operationId())).isEqualTo("DISCARDED");
        assertThat(query("SELECT operation_id FROM audit_log WHERE dlq_entry_id = ? AND action = 'DISCARD'", op.dlqEntryId()))
                .isEqualTo(op.operationId());
    }

    @Test
    void neitherOrBothOrAnUnknownEntry_isOneLineAndExitTwo() {
        for (String command : List.of("discard", "resolve")) {
            CliRun neither = run(command, "--reason", "r");
            CliRun both = run(command, "a:b:0", "--entry", String.valueOf(toShow), "--reason", "r");
            for (CliRun bad : List.of(neither, both)) {
                assertThat(bad.exit()).isEqualTo(ExitCode.USAGE);
                assertThat(bad.err().strip()).isEqualTo(command + ": expected an operation id (OP) or --entry ID, exactly "
                        + "one of them (see redrive " + command + " --help)");
            }
            CliRun unknown = run(command, "--entry", "987654321", "--reason", "r");
            assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
            assertThat(unknown.err().strip()).isEqualTo(command + ": no DLQ entry 987654321 in namespace " + ns.name());
        }
        assertThat(run("op", "show").err().strip())
                .isEqualTo("show: expected an operation id (OP) or --entry ID, exactly one of them (see redrive op show --help)");
        assertThat(run("op", "show", "--entry", "987654321").err().strip()).isEqualTo("show: no DLQ entry 987654321 in namespace " + ns.name());
        CliRun report = run("report", "--group", "fp", "--entry", "1", "--format", "md", "--out", "x.md");
        assertThat(report.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(report.err().strip()).isEqualTo("report: expected operation ids (OP...), --group FP, --batch BATCH, --entry ID or "
                + "--trace TRACE, exactly one of them (see redrive report --help)");
        assertThat(run("report", "--entry", "987654321", "--format", "md", "--out", "x.md").err().strip())
                .isEqualTo("report: no DLQ entry 987654321 in namespace " + ns.name());
        assertThat(run("redrive", "--entry", "1", "--reason", "r").exit()).as("redrive takes no --entry").isEqualTo(ExitCode.USAGE);
        assertThat(query("SELECT decision_state FROM dlq_entries WHERE id = ?", toShow)).isEqualTo("OPEN");
    }
}
