package dev.redrive.console.detail;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.identity.OperationId;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.MessageDeadLetters;
import dev.redrive.triage.MessageDeadLetters.RefusesEveryPayload;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.worker.Worker;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * The detail pane's model on entries a real worker dead-lettered as messages: one without a tool (a secret in its
 * payload), and a foreign dispatch reusing the id of an operation the tool refused.
 */
class EntryWithoutOperationViewModelTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final String SECRET = "hunter2-never-on-screen";
    private static final OperationId REFUSED = new OperationId("pane", "refused", 0);

    private static long malformed;
    private static long toDecide;
    private static long ownEntry;
    private static long conflict;

    @BeforeAll
    static void aWorkerDeadLettersAMalformedDispatch_andAConflictNamingADeadLetteredOperation() {
        MessageDeadLetters letters = new MessageDeadLetters(ns);
        WorkerClient client = letters.client();
        Worker worker = letters.startWorker(new RefusesEveryPayload("test.refuses"));
        try {
            malformed = letters.awaitEntry(letters.publishWithoutTool(new OperationId("pane", "malformed", 0),
                    "{\"amount\":5,\"password\":\"" + SECRET + "\"}", "trace-pane"));
            toDecide = letters.awaitEntry(letters.publishWithoutTool(new OperationId("pane", "decided", 0),
                    "{\"amount\":6}", null));
            ownEntry = letters.awaitEntry(client.dispatch(client.newDispatch(REFUSED, "test.refuses", "1",
                    "{\"amount\":-1}", null, null, null)).entryId());
            conflict = letters.awaitEntry(client.publish(client.newDispatch(REFUSED, "test.refuses", "1",
                    "{\"amount\":-2}", null, null, null)));
        } finally {
            worker.shutdown().join();
        }
    }

    private static OperationDetailViewModel model() {
        return DetailModels.over(ns.database(), UiExecutor.inline(), TracerLinks.NONE);
    }

    @Test
    void anEntryWithoutOperation_showsItsCodeClaimsAndMaskedRawMessage_andOffersOnlyDiscardAndResolve() {
        OperationDetailViewModel model = model();

        model.showEntry(malformed);

        assertThat(model.entryAloneProperty().get()).isTrue();
        assertThat(model.titleProperty().get()).isEqualTo("DLQ entry " + malformed);
        assertThat(model.shownIdProperty().get()).isEqualTo(String.valueOf(malformed));
        assertThat(model.lastErrorProperty().get()).isEqualTo("INVALID_INPUT invalid_envelope: tool is missing");
        assertThat(model.claimedOperationProperty().get()).startsWith("pane:malformed:0");
        assertThat(model.traceIdProperty().get()).isEqualTo("trace-pane");
        assertThat(model.streamProperty().get()).endsWith(":dispatch");
        assertThat(model.receivedProperty().get()).isNotEmpty();
        assertThat(model.rawMessageProperty().get()).contains("pane:malformed:0", "[redacted]").doesNotContain(SECRET);
        assertThat(model.decisionProperty().get()).isEqualTo("OPEN · waiting for a decision");
        assertThat(model.decidableProperty().get()).isTrue();
        assertThat(model.redrivableProperty().get()).isFalse();
        assertThat(model.sideEffectProperty().get()).isNull();
        assertThat(model.attempts()).isEmpty();
    }

    @Test
    void aDecisionByEntryId_isShownWithItsAuditLineAfterARefresh() {
        OperationDetailViewModel model = model();
        model.showEntry(toDecide);

        TestDecisions.of(ns)
                .discard(DecisionTarget.entry(toDecide), "erin", "publisher fixed");
        model.refresh();

        assertThat(model.decisionProperty().get()).startsWith("DISCARDED by erin at ").endsWith(" · publisher fixed");
        assertThat(model.decidableProperty().get()).isFalse();
        assertThat(model.audit()).singleElement().satisfies(line -> {
            assertThat(line.action()).isEqualTo("DISCARD");
            assertThat(line.operationId()).isNull();
        });
    }

    @Test
    void aConflictNamingAnOperation_isShownAsThatEntry_whileTheOperationsOwnEntryShowsTheOperation() {
        OperationDetailViewModel model = model();

        model.showEntry(conflict);

        assertThat(model.entryAloneProperty().get()).isTrue();
        assertThat(model.titleProperty().get()).isEqualTo("DLQ entry " + conflict);
        assertThat(model.lastErrorProperty().get()).contains(" idempotency_conflict: ");
        assertThat(model.claimedOperationProperty().get()).isEqualTo(REFUSED.value() + " (not this entry's operation)");
        assertThat(model.redrivableProperty().get()).isFalse();

        model.showEntry(ownEntry);

        assertThat(model.entryAloneProperty().get()).isFalse();
        assertThat(model.titleProperty().get()).isEqualTo(REFUSED.value());
        assertThat(model.entryProperty().get().id()).isEqualTo(ownEntry);
        assertThat(model.lastErrorProperty().get()).startsWith("INVALID_INPUT negative_amount: amount must be positive");
        assertThat(model.redrivableProperty().get()).isTrue();
        assertThat(model.attempts()).hasSize(1);
    }
}
