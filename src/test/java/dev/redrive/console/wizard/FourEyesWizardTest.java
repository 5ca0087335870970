package dev.redrive.console.wizard;

import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.services.TriageServices;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.ApprovalResult;
import dev.redrive.triage.request.DecisionRequest;
import dev.redrive.triage.request.DecisionRequests;
import dev.redrive.triage.request.FourEyesPolicy;
import dev.redrive.triage.request.PolicyStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wizard under a four-eyes policy: step 4 says the decision will wait and names the rule, issuing records one
 * request and decides nothing, and a second operator's approval then takes the decision as it was asked for.
 */
class FourEyesWizardTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static TriageServices services;
    private static WizardBackend backend;

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(60, "eyes");
        services = TriageServices.over(ns.database(), ns.redis(), Clock.systemUTC());
        backend = new TriageWizardBackend(services, HttpSideEffectLookup.forTool("demo.charge",
                URI.create("http://127.0.0.1:9/none/")), Redactor.defaults());
        new PolicyStore(ns.database()).write(FourEyesPolicy.of(true, null, false, List.of("mail.send"), null), "owner",
                Instant.now());
    }

    private static List<WizardItem> open(String tool, int count) {
        return ns.database().jdbc().query("""
                SELECT e.operation_id, e.id, e.version FROM dlq_entries e JOIN runs r ON r.run_id = e.run_id
                 WHERE e.decision_state = 'OPEN' AND r.status = 'RUNNING' AND e.side_effect = 'NONE' AND e.tool = ?
                   AND NOT EXISTS (SELECT FROM decision_requests q WHERE q.targets @> jsonb_build_array(
                                   jsonb_build_object('operation_id', e.operation_id)))
                 ORDER BY e.id LIMIT ?""", row -> new WizardItem(row.getString(1), row.getLong(2), row.getInt(3)),
                tool, count);
    }

    private static long commands(String operationId) {
        return ns.database().jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id = ?", operationId);
    }

    @Test
    void aCoveredRedriveBecomesARequest_andASecondOperatorsApprovalIssuesIt() {
        List<WizardItem> items = open("mail.send", 1);
        assertThat(items).hasSize(1);
        String operation = items.get(0).operationId();
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, UiExecutor.inline(), items, "ana");
        model.loadEvidence();
        model.recheck();

        assertThat(model.waitsForApprovalProperty().get()).isEqualTo("four-eyes covers tool mail.send");
        assertThat(model.planProperty().get()).startsWith("Nothing is taken now: this asks a second operator to "
                + "approve. Once approved, it records a redrive command and dispatches attempt ");
        model.reasonProperty().set("mail relay is back");
        model.issue();

        assertThat(model.workerToCheckProperty().get()).as("a request has no worker to check").isFalse();
        WizardItem item = model.items().get(0);
        assertThat(item.outcomeProperty().get().kind()).isEqualTo(ItemResult.Kind.WAITING);
        assertThat(item.outcomeProperty().get().text()).startsWith("Waiting for a second operator's approval: request ");
        assertThat(commands(operation)).isZero();
        assertThat(ns.database().jdbc().queryOne("SELECT decision_state FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), item.dlqEntryId())).contains("OPEN");
        DecisionRequests requests = services.requests(Redactor.defaults());
        DecisionRequest request = requests.pending().stream()
                .filter(pending -> pending.targets().get(0).operationId().equals(operation)).findFirst().orElseThrow();
        assertThat(request.requestedBy()).isEqualTo("ana");
        assertThat(request.reason()).isEqualTo("mail relay is back");

        ApprovalResult approved = requests.approve(request.id(), "bob");

        assertThat(approved.outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(commands(operation)).isEqualTo(1);
    }

    @Test
    void aDecisionThePolicyDoesNotCoverIsTakenAtOnce_andStep4SaysNothingOfApproval() {
        List<WizardItem> items = open("demo.charge", 1);
        assertThat(items).hasSize(1);
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, UiExecutor.inline(), items, "ana");
        model.loadEvidence();
        model.recheck();
        model.choose(dev.redrive.triage.decision.DecisionKind.DISCARD);

        assertThat(model.waitsForApprovalProperty().get()).isEmpty();
        assertThat(model.planProperty().get()).startsWith("Gives up ");
        model.reasonProperty().set("duplicate");
        model.issue();

        assertThat(model.items().get(0).resultProperty().get().outcome()).isEqualTo(DecisionOutcome.DONE);
    }
}
