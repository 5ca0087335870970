package dev.redrive.cli;

import dev.redrive.services.TriageServices;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.BulkDeadLetters;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.durable.BatchSelection;
import dev.redrive.triage.decision.durable.BatchState;
import dev.redrive.triage.decision.durable.DurableBatches;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The triage commands run by a viewer login read the rows the database masked for it, and say nothing secret. */
class ViewerCliTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final String CARD = "4111 1111 1111 1111";
    private static DatabaseLogin viewer;
    private static Created op;

    @BeforeAll
    static void start() {
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        op = fixture.deadLettered("run-cli-viewer", "charge").message("declined: card " + CARD + ", password=hunter2")
                .create();
        viewer = DatabaseLogin.viewer(ns, "vik");
    }

    @AfterAll
    static void stop() {
        viewer.close();
    }

    private static CliRun asViewer(String... args) {
        return CliRun.as(viewer, ns, args);
    }

    @Test
    void aViewersBatch_startOrResume_isRefusedInOneLine_exitFive_likeItsOtherDecisions() {
        BulkDeadLetters.create(ns.database(), "run-viewer-batch", "fp-viewer-batch", 3);
        DurableBatches batches = TriageServices.over(ns.database(), ns.redis(), Clock.systemUTC()).batches();
        long id = batches.start(DecisionKind.REDRIVE, BatchSelection.group("fp-viewer-batch"),
                BatchOptions.of("alice", "ledger is back", 0)).id();
        batches.stop(id);
        String refusal = "refused by the database: read-only: role " + viewer.login() + " is a viewer: it may look "
                + "but not decide (no ";

        CliRun resume = asViewer("redrive", "--resume", String.valueOf(id));
        CliRun start = asViewer("redrive", "--group", "fp-viewer-batch", "--reason", "ledger is back", "--operator",
                "vik");

        assertThat(resume.exit()).isEqualTo(ExitCode.REFUSED);
        assertThat(resume.err().strip()).startsWith("redrive: " + refusal).endsWith("; batch " + id + " was not run")
                .doesNotContain("\n");
        assertThat(start.exit()).isEqualTo(ExitCode.REFUSED);
        assertThat(start.err().strip()).startsWith("redrive: " + refusal).endsWith("; no batch was recorded")
                .doesNotContain("\n");
        assertThat(resume.out() + start.out()).isEmpty();
        assertThat(batches.find(id).orElseThrow().state()).isEqualTo(BatchState.STOPPED);
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_batches")).isEqualTo(1);
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands")).isZero();
    }

    @Test
    void dlqList_opShow_andReport_workForAViewer_withoutASecret(@TempDir Path dir) throws Exception {
        CliRun list = asViewer("dlq", "list", "--json");
        CliRun show = asViewer("op", "show", op.operationId(), "--json");
        CliRun entry = asViewer("op", "show", "--entry", String.valueOf(op.dlqEntryId()));
        Path report = dir.resolve("report.md");
        CliRun written = asViewer("report", op.operationId(), "--format", "md", "--out", report.toString());

        assertThat(List.of(list, show, entry, written)).allSatisfy(run -> assertThat(run.exit()).as(run.err()).isZero());
        assertThat(list.out()).contains(op.operationId(), "declined: card [redacted], password=[redacted]");
        assertThat(show.out()).contains("[redacted]");
        assertThat(List.of(list.out(), show.out(), entry.out(), Files.readString(report)))
                .allSatisfy(text -> assertThat(text).doesNotContain(CARD, "4111111111111111", "hunter2"));
    }
}
