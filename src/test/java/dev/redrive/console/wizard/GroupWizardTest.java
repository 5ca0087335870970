package dev.redrive.console.wizard;

import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.model.FailureClass;
import dev.redrive.services.TriageServices;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.query.DlqFilter;
import dev.redrive.triage.query.FingerprintGroup;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.redaction.Redactor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class GroupWizardTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void aBatchOverAGroupRedrivesWhatPassesAndReportsWhatIsBlocked() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(400, "group");
        JdbcDlqQueries queries = new JdbcDlqQueries(ns.database());
        FingerprintGroup group = queries.groups(DlqFilter.builder().errorClass(FailureClass.PERMISSION).build()).get(0);
        ns.database().jdbc().update("UPDATE runs SET status = 'CANCELLED' WHERE run_id = 'group-run-00002'");
        Decisions decisions = TestDecisions.of(ns);
        WizardBackend backend = new TriageWizardBackend(TriageServices.over(ns.database(), ns.redis(), Clock.systemUTC()),
                new HttpSideEffectLookup(Map.of(), java.time.Duration.ofSeconds(1)), Redactor.defaults());
        List<WizardItem> items = GroupItems.open(queries, group.fingerprint(), 1_000);
        long blocked = items.stream().filter(item -> item.operationId().startsWith("group-run-00002:")).count();
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, UiExecutor.inline(), items, "ana");

        model.loadEvidence();
        model.recheck();
        assertThat(model.checkSummaryProperty().get()).isEqualTo((items.size() - blocked) + " of " + items.size()
                + " entries pass every check; " + blocked + " blocked");
        assertThat(model.tallies()).extracting(CheckTally::line).containsExactly("run is active blocks " + blocked
                + " (run cancelled ×" + blocked + "): they can still get discard " + blocked);
        model.choose(DecisionKind.REDRIVE);
        model.redrivesPerSecondProperty().set(100);
        model.reasonProperty().set("permissions restored for the merchant");
        model.issue();

        assertThat(items).hasSize((int) group.openCount());
        assertThat(blocked).isPositive().isLessThan(items.size());
        assertThat(model.resultSummaryProperty().get()).isEqualTo("0 succeeded · 0 failed · " + blocked + " blocked · "
                + (items.size() - blocked) + " waiting");
        assertThat(items).filteredOn(item -> item.operationId().startsWith("group-run-00002:"))
                .allMatch(item -> item.resultProperty().get() == null
                        && item.outcomeProperty().get().text().equals("Not redriven: blocked by run cancelled"));
        assertThat(items).filteredOn(item -> item.resultProperty().get() != null)
                .allMatch(item -> item.resultProperty().get().outcome() == DecisionOutcome.DONE);
        assertThat(ns.redis().sync().xlen(ns.redis().keys().dispatch())).isEqualTo(items.size() - blocked);
    }
}
