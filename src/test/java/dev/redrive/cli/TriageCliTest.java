package dev.redrive.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.json.TriageJson;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TriageCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static DeadLetterFixture fixture;
    private static Created fine;
    private static Created uncertain;

    @BeforeAll
    static void incident() {
        fixture = DeadLetterFixture.withChargeTool(ns.database());
        fine = fixture.deadLettered("run-cli", "charge-1").fingerprint("fp-cli").create();
        uncertain = fixture.deadLettered("run-cli", "charge-2").fingerprint("fp-cli").errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).message("read timed out after 5000 ms").create();
    }

    private static CliRun run(String... args) {
        return CliRun.in(ns, args);
    }

    @Test
    void dlqListAndGroups_printRowsAndGroupsInJsonWithSnakeCase() {
        CliRun list = run("dlq", "list", "--run", "run-cli", "--json");
        assertThat(list.exit()).isZero();
        JsonNode page = TriageJson.parse(list.out());
        assertThat(page.path("rows")).hasSize(2);
        assertThat(page.path("rows").get(0).path("operation_id").asText()).isEqualTo(uncertain.operationId());
        assertThat(page.path("rows").get(0).path("error_class").asText()).isEqualTo("UNKNOWN_SIDE_EFFECT");
        assertThat(page.path("total").asLong()).isEqualTo(2);

        CliRun paged = run("dlq", "list", "--run", "run-cli", "--limit", "1");
        assertThat(paged.out()).contains(uncertain.operationId()).contains("older: --after ");
        String cursor = paged.out().lines().filter(l -> l.startsWith("older: --after ")).findFirst().orElseThrow()
                .substring("older: --after ".length());
        assertThat(run("dlq", "list", "--run", "run-cli", "--limit", "1", "--after", cursor).out()).contains(fine.operationId());

        CliRun groups = run("dlq", "groups", "--fingerprint", "fp-cli", "--json");
        assertThat(TriageJson.parse(groups.out()).get(0).path("open_count").asLong()).isEqualTo(2);
    }

    @Test
    void dlqListOldestFirst_pagesForwardAndBackWithThePrintedCursors() {
        List<Created> oldestFirst = List.of(
                fixture.deadLettered("run-cli-order", "a").enteredAt(Instant.parse("2026-11-29T07:00:00Z")).create(),
                fixture.deadLettered("run-cli-order", "b").enteredAt(Instant.parse("2026-11-29T08:00:00Z")).create(),
                fixture.deadLettered("run-cli-order", "c").enteredAt(Instant.parse("2026-11-29T09:00:00Z")).create());

        CliRun first = run("dlq", "list", "--run", "run-cli-order", "--oldest-first", "--limit", "1");
        assertThat(first.exit()).isZero();
        assertThat(first.out()).contains(oldestFirst.get(0).operationId()).doesNotContain("older: --before");
        CliRun second = run(cursorArgs(first.out(), "newer: --after "));
        assertThat(second.out()).contains(oldestFirst.get(1).operationId())
                .doesNotContain(oldestFirst.get(0).operationId(), oldestFirst.get(2).operationId());
        CliRun third = run(cursorArgs(second.out(), "newer: --after "));
        assertThat(third.out()).contains(oldestFirst.get(2).operationId()).doesNotContain("newer: --after");
        CliRun back = run(cursorArgs(third.out(), "older: --before "));
        assertThat(back.out()).contains(oldestFirst.get(1).operationId()).doesNotContain(oldestFirst.get(2).operationId());

        JsonNode all = TriageJson.parse(run("dlq", "list", "--run", "run-cli-order", "--oldest-first", "--json").out());
        assertThat(all.path("rows").findValuesAsText("operation_id"))
                .containsExactly(oldestFirst.stream().map(Created::operationId).toArray(String[]::new));
        assertThat(TriageJson.parse(run("dlq", "list", "--run", "run-cli-order", "--json").out()).path("rows").get(0)
                .path("operation_id").asText()).as("newest first by default").isEqualTo(oldestFirst.get(2).operationId());
    }

    /** The arguments a printed cursor line tells the operator to add, on top of the same listing. */
    private static String[] cursorArgs(String out, String linePrefix) {
        String line = out.lines().filter(l -> l.startsWith(linePrefix)).findFirst().orElseThrow();
        List<String> args = new ArrayList<>(List.of("dlq", "list", "--run", "run-cli-order", "--limit", "1"));
        args.addAll(List.of(line.substring(line.indexOf(": ") + 2).split(" ")));
        return args.toArray(String[]::new);
    }

    @Test
    void opShow_printsTheOperationWithAttemptsAndARedactedPayload() {
        CliRun show = run("op", "show", fine.operationId(), "--json");

        assertThat(show.exit()).isZero();
        JsonNode json = TriageJson.parse(show.out());
        assertThat(json.path("operation_id").asText()).isEqualTo(fine.operationId());
        assertThat(json.path("attempts").get(0).has("delivery_id")).isTrue();
        assertThat(json.path("payload").path("card_number").asText()).isEqualTo("[redacted]");
        assertThat(show.out()).doesNotContain("4111 1111 1111 1111");
        assertThat(run("op", "show", fine.operationId()).out()).contains("attempts:", "#3 DEAD_LETTERED");
    }

    @Test
    void redactMasksMoreFields_andNeverUnmasksTheDefaults(@TempDir Path dir) throws Exception {
        CliRun show = run("op", "show", fine.operationId(), "--json", "--redact", "amount, note");

        assertThat(show.exit()).isZero();
        JsonNode payload = TriageJson.parse(show.out()).path("payload");
        assertThat(payload.path("amount").asText()).isEqualTo("[redacted]");
        assertThat(payload.path("note").asText()).isEqualTo("[redacted]");
        assertThat(payload.path("card_number").asText()).isEqualTo("[redacted]");
        assertThat(payload.path("currency").asText()).isEqualTo("EUR");
        assertThat(show.out()).doesNotContain("4111 1111 1111 1111");

        Path md = dir.resolve("redacted.md");
        assertThat(run("report", fine.operationId(), "--format", "md", "--out", md.toString(), "--redact", "amount")
                .exit()).isZero();
        assertThat(Files.readString(md)).doesNotContain("4111 1111 1111 1111").contains("EUR");
    }

    @Test
    void reconcilingADecidedOperation_isOneLineExitThree_andRecordsNothing() {
        Created decided = fixture.deadLettered("run-cli-decided", "charge").create();
        assertThat(run("discard", decided.operationId(), "--reason", "dup", "--operator", "carol").exit()).isZero();

        CliRun late = run("reconcile", decided.operationId(), "--not-applied", "--evidence", "changed mind");

        assertThat(late.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(late.err().strip()).isEqualTo("reconcile: operation " + decided.operationId() + " is DISCARDED, not "
                + "DEAD_LETTERED: a reconciliation settles a dead-lettered operation's side effect only (op show "
                + decided.operationId() + " says what became of it)");
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM reconciliations WHERE operation_id = ?",
                decided.operationId())).isZero();
    }

    @Test
    void opShow_masksSecretsInErrorMessages() {
        Created leaky = fixture.deadLettered("run-cli-leaky", "charge-1")
                .message("charge failed: card 4111111111111111 declined, Authorization: Bearer abc.def").create();

        for (CliRun show : List.of(run("op", "show", leaky.operationId()), run("op", "show", leaky.operationId(), "--json"))) {
            assertThat(show.exit()).isZero();
            assertThat(show.out()).contains("charge failed: card [redacted] declined, Authorization: [redacted]")
                    .doesNotContain("4111111111111111", "abc.def");
        }
    }

    @Test
    void blockedRedrive_exitsThreeAndNamesEachFailedCheck() {
        long before = ns.redis().sync().xlen(ns.redis().keys().dispatch());

        CliRun blocked = run("redrive", uncertain.operationId(), "--reason", "try again", "--operator", "alice");

        assertThat(blocked.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(blocked.out()).contains("BLOCKED", "[FAIL] side_effect: the side effect is uncertain");
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(before);
    }

    @Test
    void unknownOperation_isOneLineAndExitTwo() {
        CliRun unknown = run("op", "show", "nope:nothing:0");

        assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err().strip()).isEqualTo("show: no operation 'nope:nothing:0' in namespace " + ns.name());
        CliRun garbage = run("op", "show", "garbage");
        assertThat(garbage.exit()).isEqualTo(ExitCode.USAGE);
        assertThat(garbage.err().strip()).isEqualTo("show: no operation 'garbage' in namespace " + ns.name()
                + "; an operation id has the form RUN:NODE:LOGICAL_ATTEMPT (dlq list shows them)");
    }

    @Test
    void dryRunOverAGroup_thenReconcileRedriveAndReport(@TempDir Path dir) throws Exception {
        CliRun dry = run("redrive", "--group", "fp-cli", "--reason", "ledger back", "--dry-run");
        assertThat(dry.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(dry.out()).contains("WOULD_PASS", "[PASS] run_active", "2 item(s), dry run");

        Created other = fixture.deadLettered("run-cli-2", "charge").create();
        CliRun reconciled = run("reconcile", other.operationId(), "--not-applied", "--evidence", "nothing at the PSP", "--operator", "bob");
        assertThat(reconciled.out()).contains("NOT_APPLIED");
        CliRun redrive = run("redrive", other.operationId(), "--reason", "ledger back", "--operator", "bob");
        assertThat(redrive.exit()).isZero();
        assertThat(redrive.out()).contains("DONE redrive command");
        CliRun again = run("discard", other.operationId(), "--reason", "dup", "--operator", "carol");
        assertThat(again.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(again.out()).contains("already decided by bob");

        Path pdf = dir.resolve("incident.pdf");
        CliRun report = run("report", other.operationId(), "--format", "pdf", "--out", pdf.toString());
        assertThat(report.exit()).isZero();
        try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
            assertThat(new PDFTextStripper().getText(document)).contains(other.operationId(), "ledger back", "nothing at the PSP");
        }
        Path md = dir.resolve("group.md");
        assertThat(run("report", "--group", "fp-cli", "--format", "md", "--out", md.toString()).exit()).isZero();
        assertThat(Files.readString(md)).contains(fine.operationId(), uncertain.operationId());
        assertThat(run("report", "--group", "fp-cli", "--format", "docx", "--out", md.toString()).err())
                .contains("report format must be html, pdf, md or json");
    }

    @Test
    void resolveWithAResult_andDiscard() {
        Created a = fixture.deadLettered("run-cli-3", "charge-a").create();
        Created b = fixture.deadLettered("run-cli-3", "charge-b").create();

        CliRun resolved = run("resolve", a.operationId(), "--reason", "done by hand", "--result", "{\"charge_id\":\"ch_1\"}");
        CliRun discarded = run("discard", b.operationId(), "--reason", "customer cancelled", "--json");

        assertThat(resolved.exit()).isZero();
        assertThat(resolved.out()).contains("DONE");
        assertThat(discarded.exit()).isZero();
        assertThat(TriageJson.parse(discarded.out()).path("outcome").asText()).isEqualTo("DONE");
        assertThat(run("resolve", a.operationId(), "--reason", "x", "--result", "{oops").err()).contains("--result must be a JSON object such as {\"charge_id\":\"ch_1\"}, got '{oops'");
    }
}
