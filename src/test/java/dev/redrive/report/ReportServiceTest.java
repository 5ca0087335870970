package dev.redrive.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.json.TriageJson;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Reports in every format carry the evidence, the checks and the decisions, and never a redacted secret. */
class ReportServiceTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final List<String> SECRETS = List.of("4111 1111 1111 1111", "sk_live_51Hx", "hunter2-secret");
    private static final String PAYLOAD = """
            {"amount": 42, "currency": "EUR", "card_number": "4111 1111 1111 1111", "api_key": "sk_live_51Hx",
             "customer": {"name": "Ada", "password": "hunter2-secret"}}""";

    private static ReportService reports;
    private static Created redriven;
    private static Created blocked;
    private static DecisionResult redrive;

    @BeforeAll
    static void anIncident() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-30T01:30:00Z"), ZoneOffset.UTC);
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        redriven = fixture.deadLettered("run-report", "charge-1").errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).payload(PAYLOAD).fingerprint("fp-report")
                .message("read timed out after 5000 ms \u2192 charge may be applied \u2713 \u65e5\u672c").create();
        blocked = fixture.deadLettered("run-report-cancelled", "charge-2").payload(PAYLOAD).fingerprint("fp-report").create();
        fixture.cancelRun("run-report-cancelled");
        Decisions decisions = TestDecisions.of(ns, clock);
        decisions.recordReconciliation(redriven.operationId(), ReconciliationOutcome.NOT_APPLIED,
                "no charge at the PSP for this key (ticket 5512)", null, "alice");
        redrive = decisions.redrive(DecisionTarget.operation(redriven.operationId()), "alice", "PSP confirmed nothing was charged");
        assertThat(redrive.outcome()).isEqualTo(DecisionOutcome.DONE);
        reports = new ReportService(ns.database(), clock, Redactor.defaults());
    }

    @Test
    void operationReport_inEveryFormat_carriesTheEvidenceChecksAndDecisions_andNoSecret() throws Exception {
        IncidentReport report = reports.operation(redriven.operationId());

        for (ReportFormat format : ReportFormat.values()) {
            String text = text(report, format);
            assertThat(text).as(format + " report")
                    .contains(redriven.operationId(), redriven.idempotencyKey(), "trace-charge-1", "corr-run-report",
                            "UNKNOWN_SIDE_EFFECT", "read timed out after 5000 ms", "fp-report", "NOT_APPLIED",
                            "no charge at the PSP for this key", "PSP confirmed nothing was charged", "alice",
                            redrive.commandId().toString(), "worker-1", "1700000000003-0", "redrive-java/test");
            // A reader gets the checks by what they require, JSON by their ids.
            assertThat(text).as(format + " report").contains(format == ReportFormat.JSON
                    ? List.of("run_active", "side_effect", "entry_open")
                    : List.of("run is active", "side effect is settled", "entry is open"));
            assertThat(text).as(format + " report").contains("[redacted]");
            SECRETS.forEach(secret -> assertThat(text).as(format + " report must not show " + secret).doesNotContain(secret));
        }
    }

    @Test
    void everyReadableFormat_opensWithTheSummary_beforeAnyEvidence() throws IOException {
        // The typed name, with the login that decided beside it (the test decides as the namespace's owner).
        String alice = "alice (login " + ns.config().pgUser() + ")";
        IncidentReport report = reports.operation(redriven.operationId());
        List<String> summary = List.of(redriven.operationId(), "current status", "PENDING (attempt 4), DLQ entry", "REDRIVEN",
                "side effect", "NOT_APPLIED", "RECONCILE by " + alice + " at 2026-11-30 01:30:00.000 UTC",
                "REDRIVE by " + alice + " at 2026-11-30 01:30:00.000 UTC: PSP confirmed nothing was charged", "verification",
                "WAITING");

        for (ReportFormat format : List.of(ReportFormat.HTML, ReportFormat.MARKDOWN)) {
            String text = text(report, format);
            String opening = text.substring(0, text.indexOf("About this report"));
            assertThat(opening).as(format + " report before its first section").contains(summary);
        }
        String page = RenderedReports.pdfFirstPage(reports, report);
        assertThat(page.substring(0, page.indexOf("About this report"))).as("the PDF's first page").contains(summary);
    }

    @Test
    void reports_listThePreconditionsOnce_andWriteTimesToTheMillisecondWithTheZone() {
        for (ReportFormat format : List.of(ReportFormat.HTML, ReportFormat.MARKDOWN, ReportFormat.PDF)) {
            String text = text(reports.operation(redriven.operationId()), format);

            assertThat(text.split("entry is open", -1)).as(format + ": the entry check appears once").hasSize(2);
            assertThat(text).as(format + " report").contains("all 5 passed", "2026-11-30 01:30:00.000 UTC")
                    .doesNotContainPattern("\\d\\d:\\d\\d:\\d\\d\\.\\d{4,}")
                    .doesNotContainPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d");
        }
    }

    @Test
    void aSelectionReport_summarisesEachOperationInOneRow() {
        String markdown = text(reports.selection(List.of(redriven.operationId(), blocked.operationId())), ReportFormat.MARKDOWN);

        String opening = markdown.substring(0, markdown.indexOf("About this report"));
        assertThat(opening).contains("| operation | current status | side effect | decisions | verification |",
                "| " + redriven.operationId() + " |", "| " + blocked.operationId() + " |", "none yet",
                "not redriven, nothing to verify");
    }

    @Test
    void secretsInAnErrorMessage_appearInNoFormat() {
        Created leaky = new DeadLetterFixture(ns.database()).deadLettered("run-report-leaky", "charge-3").fingerprint("fp-leaky")
                .message("charge failed: card 4111111111111111 declined, Authorization: Bearer abc.def, password=pw-planted-77")
                .create();
        TestDecisions.of(ns)
                .recordReconciliation(leaky.operationId(), ReconciliationOutcome.NOT_APPLIED,
                        "PSP log shows card 4111 1111 1111 1111 was never charged", null, "alice");

        for (IncidentReport report : List.of(reports.operation(leaky.operationId()), reports.group("fp-leaky"))) {
            for (ReportFormat format : ReportFormat.values()) {
                String text = text(report, format);
                assertThat(text).as(format + " report").contains("charge failed: card", "declined", "was never charged")
                        .doesNotContain("4111111111111111", "4111 1111 1111 1111", "abc.def", "pw-planted-77");
            }
        }
    }

    @Test
    void pdfReport_keepsCharactersOutsideWinAnsi() throws IOException {
        String message = "\u2265 3 retries \u2192 DLQ, \u91cd\u8bd5 \ud83d\ude80 caf\u00e9 \u0394t";
        Created unicode = new DeadLetterFixture(ns.database()).deadLettered("run-report-unicode", "charge-4")
                .fingerprint("fp-unicode").message(message).create();
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        reports.write(reports.operation(unicode.operationId()), ReportFormat.PDF, out);

        try (PDDocument pdf = Loader.loadPDF(out.toByteArray())) {
            assertThat(new PDFTextStripper().getText(pdf)).contains(message).doesNotContain("?");
            PDFont font = pdf.getPage(0).getResources().getFont(pdf.getPage(0).getResources().getFontNames().iterator().next());
            assertThat(font.isEmbedded()).isTrue();
            assertThat(font.getName()).contains("DejaVuSans");
        }
    }

    @Test
    void htmlReport_isSelfContainedWithAnSvgTimeline() {
        String html = text(reports.operation(redriven.operationId()), ReportFormat.HTML);

        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "<rect", "attempt 3", "redrive by alice")
                .doesNotContain("<script", "<link", "src=\"http");
    }

    @Test
    void jsonReport_usesSnakeCaseFields() {
        JsonNode json = TriageJson.parse(text(reports.operation(redriven.operationId()), ReportFormat.JSON));

        JsonNode operation = json.path("operations").get(0);
        assertThat(operation.path("details").path("operation").path("operation_id").asText()).isEqualTo(redriven.operationId());
        assertThat(operation.path("details").path("attempts").get(0).has("error_class")).isTrue();
        assertThat(operation.path("preconditions").path("results").get(0).path("id").asText()).isEqualTo("run_active");
        assertThat(operation.path("details").path("operation").path("payload").path("card_number").asText()).isEqualTo("[redacted]");
    }

    @Test
    void groupReport_coversEveryOperationOfTheFingerprint_withTheBlockingCheck() {
        IncidentReport report = reports.group("fp-report");

        assertThat(report.group().count()).isEqualTo(2);
        assertThat(report.operations()).hasSize(2);
        String markdown = text(report, ReportFormat.MARKDOWN);
        assertThat(markdown).contains(redriven.operationId(), blocked.operationId(), "is CANCELLED", "| FAIL |");
        SECRETS.forEach(secret -> assertThat(markdown).doesNotContain(secret));
        String pdf = text(report, ReportFormat.PDF);
        assertThat(pdf).contains(blocked.operationId(), "Fingerprint group fp-report");
        // Before any operation's pages, the whole group in a few lines: a long report is read from there.
        String opening = markdown.substring(0, markdown.indexOf("About this report"));
        assertThat(opening).contains("operations in this report", "by status", "by side effect", "by DLQ entry")
                .containsPattern("by status[^\\n]*DEAD_LETTERED 1")
                .containsPattern("by tool[^\\n]*demo.charge 2")
                .containsPattern("by failure class[^\\n]*TRANSIENT 1, UNKNOWN_SIDE_EFFECT 1")
                .containsPattern("dead-lettered[^\\n]*2 entries, at 2026-11-29 10:00")
                .containsPattern("decisions taken[^\\n]*REDRIVEN 1")
                .containsPattern("decided by[^\\n]*alice 1");
        assertThat(pdf.indexOf("by status")).isLessThan(pdf.indexOf("Operation " + blocked.operationId()));
    }

    private static String text(IncidentReport report, ReportFormat format) {
        return RenderedReports.text(reports, report, format);
    }
}
