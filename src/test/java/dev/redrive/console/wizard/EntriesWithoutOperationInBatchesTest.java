package dev.redrive.console.wizard;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.identity.OperationId;
import dev.redrive.services.TriageServices;
import dev.redrive.testing.AnswersAtOnce;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.MessageDeadLetters;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.BatchListener;
import dev.redrive.triage.decision.batch.BatchOptions;
import dev.redrive.triage.decision.batch.BatchReport;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.worker.Worker;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dispatches without a tool that name operations (legacy:a:0, ...), dead-lettered by a real worker as themselves: one
 * fingerprint group of entries without an operation of their own. A batch meets them as items that can only be
 * discarded or resolved, never as an error.
 */
class EntriesWithoutOperationInBatchesTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static List<Long> entries;
    private static Decisions decisions;

    @BeforeAll
    static void threeDispatchesWithoutATool() {
        MessageDeadLetters letters = new MessageDeadLetters(ns);
        Worker worker = letters.startWorker(new AnswersAtOnce("test.ok"));
        try {
            entries = List.of("a", "b", "c").stream().map(node -> letters.awaitEntry(letters.publishWithoutTool(
                    new OperationId("legacy", node, 0), "{\"amount\":1}", "trace-" + node))).toList();
        } finally {
            worker.shutdown().join();
        }
        decisions = TestDecisions.of(ns);
    }

    @Test
    void aBatchRedriveOfAnEntryAlone_isBlockedByItsOwnCheck_andPublishesNothing() {
        long before = ns.redis().sync().xlen(ns.redis().keys().dispatch());
        BatchDecisions batch = new BatchDecisions(decisions, new JdbcDlqQueries(ns.database()), Clock.systemUTC(),
                Sleeper.SYSTEM);

        BatchReport report = batch.redrive(List.of(DecisionTarget.entry(entries.get(0))),
                BatchOptions.of("ana", "retry", 0), BatchListener.NONE);

        assertThat(report.items()).singleElement().satisfies(item -> {
            assertThat(item.outcome()).isEqualTo(DecisionOutcome.BLOCKED);
            assertThat(item.message()).startsWith("blocked: DLQ entry " + entries.get(0) + " is a message dead-lettered "
                    + "as itself (invalid_envelope), not an attempt of legacy:a:0 it names: nothing was recorded to run again");
            assertThat(item.preconditions().failed()).extracting(result -> result.id())
                    .containsExactly(PreconditionId.OWN_OPERATION);
        });
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(before);
        assertThat(state(entries.get(0))).isEqualTo("OPEN");
    }

    @Test
    void theGroupWizard_countsThemUnderTheirOwnCheck_offersNoRedrive_andDiscardsThemByEntryId() {
        String fingerprint = ns.database().jdbc().queryOne("SELECT error_fingerprint FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), entries.get(1)).orElseThrow();
        List<WizardItem> items = GroupItems.open(new JdbcDlqQueries(ns.database()), fingerprint, 1_000).stream()
                .filter(item -> entries.subList(1, 3).contains(item.dlqEntryId())).toList();
        assertThat(items).hasSize(2).allMatch(WizardItem::entryOnly);
        WizardBackend backend = new TriageWizardBackend(TriageServices.over(ns.database(), ns.redis(), Clock.systemUTC()),
                new HttpSideEffectLookup(Map.of(), Duration.ofSeconds(1)), Redactor.defaults());
        UiExecutor executor = UiExecutor.inline();
        executor.onFailure(failure -> {
            throw new AssertionError("the operator would see: " + failure.message(), failure.error());
        });
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, executor, items, "ana");

        model.loadEvidence();
        assertThat(model.canLeaveReconcile().get()).as("nothing to reconcile").isTrue();
        assertThat(items).allSatisfy(item -> assertThat(item.reconciliationProperty().get())
                .isEqualTo("nothing to reconcile: no operation ran for this message"));
        model.recheck();

        assertThat(model.checkSummaryProperty().get()).isEqualTo("0 of 2 entries pass every check; 2 blocked");
        assertThat(model.tallies()).extracting(CheckTally::line).containsExactly("entry has an operation of its own "
                + "blocks 2 (no operation of its own ×2): they can still get resolve 2, discard 2");
        assertThat(model.canLeavePreconditions().get()).isTrue();
        assertThat(model.allowedProperty(DecisionKind.REDRIVE).get()).isFalse();
        assertThat(model.choiceNoteProperty(DecisionKind.REDRIVE).get())
                .isEqualTo("0 of 2 entries; not 2 no operation of its own: nothing was recorded to run again");
        model.choose(DecisionKind.DISCARD);
        model.reasonProperty().set("legacy publisher retired");
        assertThat(model.actionTextProperty().get()).isEqualTo("Discard 2 entries");
        model.issue();

        assertThat(model.resultSummaryProperty().get()).isEqualTo("2 succeeded · 0 failed · 0 blocked · 0 waiting");
        assertThat(items).allSatisfy(item -> assertThat(state(item.dlqEntryId())).isEqualTo("DISCARDED"));
        assertThat(model.decidedEntryIds()).containsExactlyInAnyOrderElementsOf(entries.subList(1, 3));
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM operations WHERE run_id = 'legacy'")).isZero();
    }

    private static String state(long entry) {
        return ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), entry).orElseThrow();
    }
}
