package dev.redrive.console.detail;

import dev.redrive.bench.generate.DlqGenerator;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.precondition.DecisionTarget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

class OperationDetailViewModelTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @BeforeAll
    static void seed() {
        new DlqGenerator(ns.database(), Clock.systemUTC()).generate(60, "detail");
    }

    private OperationDetailViewModel model() {
        return DetailModels.over(ns.database(), UiExecutor.inline(),
                new TracerLinks("https://tracer.example/trace/{trace_id}", ""));
    }

    private static String[] entry(String where) {
        return ns.database().jdbc().queryOne("SELECT operation_id, id, attempt FROM dlq_entries WHERE " + where
                        + " ORDER BY id LIMIT 1",
                row -> new String[]{row.getString(1), row.getString(2), row.getString(3)}).orElseThrow();
    }

    @Test
    void showsIdentityTimelineAndRedactedPayloadOfTheSelectedEntry() {
        String[] entry = entry("attempt > 2 AND decision_state = 'OPEN'");
        OperationDetailViewModel model = model();

        model.show(entry[0], Long.parseLong(entry[1]));

        assertThat(model.operationIdProperty().get()).isEqualTo(entry[0]);
        assertThat(model.timelineProperty().get().attempts()).hasSize(Integer.parseInt(entry[2]));
        assertThat(model.timelineProperty().get().deadLetteredAt()).isNotNull();
        assertThat(model.attempts()).hasSize(Integer.parseInt(entry[2]));
        assertThat(model.idempotencyKeyProperty().get()).startsWith("op-");
        assertThat(model.streamProperty().get()).endsWith(":dispatch");
        assertThat(model.payloadProperty().get()).contains("\"amount\"").contains("[redacted]")
                .doesNotContain("4111 1111 1111");
        assertThat(model.tracerUrlProperty().get()).startsWith("https://tracer.example/trace/")
                .endsWith(model.traceIdProperty().get());
        assertThat(model.schemaChangedProperty().get()).isFalse();
        assertThat(model.decidableProperty().get()).isTrue();
    }

    @Test
    void aDecidedEntryShowsWhoDecidedItAndWhen() {
        String[] entry = entry("id = (SELECT max(id) FROM dlq_entries WHERE decision_state = 'OPEN')");
        TestDecisions.of(ns)
                .discard(DecisionTarget.operation(entry[0]), "bob", "duplicate order");
        OperationDetailViewModel model = model();

        model.show(entry[0], Long.parseLong(entry[1]));

        assertThat(model.decisionProperty().get()).startsWith("DISCARDED by bob at ").endsWith(" · duplicate order");
        assertThat(model.decidableProperty().get()).isFalse();
    }

    @Test
    void aPossibleSideEffectAndAChangedSchemaAreShown() {
        String[] entry = entry("side_effect = 'POSSIBLE'");
        String tool = ns.database().jdbc().queryOne("SELECT tool FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), Long.parseLong(entry[1])).orElseThrow();
        ns.database().jdbc().update("UPDATE tool_schemas SET is_current = false WHERE tool = ?", tool);
        ns.database().jdbc().update("INSERT INTO tool_schemas (tool, version, registered_by) VALUES (?, '2', 'test')", tool);
        OperationDetailViewModel model = model();

        model.show(entry[0], Long.parseLong(entry[1]));

        assertThat(model.sideEffectProperty().get()).isEqualTo(SideEffectState.POSSIBLE);
        assertThat(model.schemaChangedProperty().get()).isTrue();
        assertThat(model.schemaNoteProperty().get()).isEqualTo("changed since failure: v1 → v2");
    }

    @Test
    void secretsInErrorMessagesAreMaskedBeforeTheyAreShown() {
        String[] entry = entry("attempt > 1 AND decision_state = 'OPEN' AND id > (SELECT min(id) FROM dlq_entries)");
        String leaky = "charge refused: card 4111111111111111, Authorization: Bearer abc.def.ghi";
        ns.database().jdbc().update("UPDATE dlq_entries SET error_message = ? WHERE id = ?", leaky, Long.parseLong(entry[1]));
        ns.database().jdbc().update("UPDATE attempts SET error_message = ? WHERE operation_id = ?", leaky, entry[0]);
        OperationDetailViewModel model = model();

        model.show(entry[0], Long.parseLong(entry[1]));

        assertThat(model.lastErrorProperty().get()).contains("charge refused: card [redacted]")
                .doesNotContain("4111111111111111").doesNotContain("abc.def.ghi");
        assertThat(model.attempts()).isNotEmpty().allSatisfy(attempt -> assertThat(attempt.errorMessage())
                .contains("[redacted]").doesNotContain("4111111111111111").doesNotContain("abc.def.ghi"));
    }

    @Test
    void anUnknownOperationIsNamedInTheMessage() {
        OperationDetailViewModel model = model();

        model.show("nope:nope:0", 1);

        assertThat(model.messageProperty().get()).isEqualTo("Loading operation nope:nope:0 failed: no operation 'nope:nope:0' in namespace " + ns.name());
        assertThat(model.loadedProperty().get()).isFalse();
    }
}
