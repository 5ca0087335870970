package dev.redrive.triage.decision;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.envelope.EnvelopeCodec;
import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.reconciliation.ReconciliationOutcome;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.precondition.PreconditionResult;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each precondition blocks a redrive on its own, and a blocked redrive writes and publishes nothing. */
class RedrivePreconditionsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Instant NOW = Instant.parse("2026-11-30T01:00:00Z");
    private static DeadLetterFixture fixture;
    private static Decisions decisions;

    @BeforeAll
    static void tools() {
        fixture = DeadLetterFixture.withChargeTool(ns.database());
        fixture.toolSchema("billing.invoice", "1");
        fixture.toolSchema("billing.invoice", "2");
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        decisions = TestDecisions.of(ns, clock);
    }

    @Test
    void everyPreconditionPassing_issuesTheCommandAndPublishesAttemptPlusOneWithTheSameKey() {
        fixture.approval("appr-ok", NOW.plusSeconds(3600));
        Created op = fixture.deadLettered("run-ok", "charge").attempts(3).approvalId("appr-ok").create();
        long before = streamLength();

        DecisionResult result = decisions.redrive(DecisionTarget.operation(op.operationId()), "alice", "PSP is back");

        assertThat(result.outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(result.preconditions().results()).hasSize(5).allMatch(PreconditionResult::passed);
        assertThat(result.newAttempt()).isEqualTo(4);
        assertThat(streamLength()).isEqualTo(before + 1);
        DispatchEnvelope published = lastDispatch();
        assertThat(published.operationId().value()).isEqualTo(op.operationId());
        assertThat(published.idempotencyKey()).isEqualTo(op.idempotencyKey());
        assertThat(published.attempt()).isEqualTo(4);
        assertThat(published.redriveCommandId()).isEqualTo(result.commandId().toString());
        assertThat(published.approvalId()).isEqualTo("appr-ok");
        assertThat(ns.jdbc().queryOne("SELECT status || ' ' || attempt || ' ' || redrive_command_id FROM operations WHERE operation_id = ?",
                row -> row.getString(1), op.operationId())).contains("PENDING 4 " + result.commandId());
        assertThat(ns.jdbc().queryOne("SELECT decision_state || ' ' || decided_by || ' ' || version FROM dlq_entries WHERE id = ?",
                row -> row.getString(1), op.dlqEntryId())).contains("REDRIVEN alice 1");
        assertThat(ns.jdbc().queryOne("""
                SELECT status || ' ' || from_attempt || '->' || to_attempt || ' ' || jsonb_array_length(preconditions)
                FROM redrive_commands WHERE command_id = ?""", row -> row.getString(1), result.commandId()))
                .contains("ISSUED 3->4 5");
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM audit_log WHERE action = 'REDRIVE' AND command_id = ? AND actor = 'alice' AND reason = 'PSP is back'",
                result.commandId())).isEqualTo(1);
    }

    @Test
    void cancelledRun_blocksTheRedrive() {
        Created op = fixture.deadLettered("run-cancelled", "charge").create();
        fixture.cancelRun("run-cancelled");

        assertBlockedOnlyBy(op, DecisionTarget.operation(op.operationId()), PreconditionId.RUN_ACTIVE, "CANCELLED");
    }

    @Test
    void changedToolSchema_blocksTheRedrive_untilTheOperatorChoosesTheCurrentVersion() {
        Created op = fixture.deadLettered("run-schema", "invoice").tool("billing.invoice").schemaVersion("1").create();

        assertBlockedOnlyBy(op, DecisionTarget.operation(op.operationId()), PreconditionId.TOOL_SCHEMA, "from version 1 to 2");
        assertBlockedOnlyBy(op, DecisionTarget.operation(op.operationId()).withSchemaVersion("3"), PreconditionId.TOOL_SCHEMA,
                "not the current");

        DecisionResult chosen = decisions.redrive(DecisionTarget.operation(op.operationId()).withSchemaVersion("2"), "alice",
                "payload checked against schema 2");
        assertThat(chosen.outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(lastDispatch().toolSchemaVersion()).isEqualTo("2");
    }

    @Test
    void revokedApproval_blocksTheRedrive() {
        fixture.approval("appr-revoked", null);
        fixture.revokeApproval("appr-revoked");
        Created op = fixture.deadLettered("run-revoked", "charge").approvalId("appr-revoked").create();

        assertBlockedOnlyBy(op, DecisionTarget.operation(op.operationId()), PreconditionId.APPROVAL, "revoked by carol");
    }

    @Test
    void expiredApproval_blocksTheRedrive() {
        fixture.approval("appr-expired", NOW.minusSeconds(1));
        Created op = fixture.deadLettered("run-expired", "charge").approvalId("appr-expired").create();

        assertBlockedOnlyBy(op, DecisionTarget.operation(op.operationId()), PreconditionId.APPROVAL, "expired");
    }

    @Test
    void uncertainSideEffect_blocksTheRedrive_andAnAppliedOneAsksToResolveInstead() {
        Created possible = fixture.deadLettered("run-possible", "charge").errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).create();
        assertBlockedOnlyBy(possible, DecisionTarget.operation(possible.operationId()), PreconditionId.SIDE_EFFECT, "reconcile first");

        decisions.recordReconciliation(possible.operationId(), ReconciliationOutcome.APPLIED,
                "charge ch_91 found in the PSP dashboard", null, "alice");
        assertBlockedOnlyBy(possible, DecisionTarget.operation(possible.operationId()), PreconditionId.SIDE_EFFECT,
                "resolve the operation as succeeded");
    }

    @Test
    void entryDecidedOrChangedSinceTheOperatorLooked_blocksTheRedrive() {
        Created op = fixture.deadLettered("run-stale", "charge").create();
        ns.jdbc().update("UPDATE dlq_entries SET version = 2 WHERE id = ?", op.dlqEntryId());
        assertBlockedOnlyBy(op, new DecisionTarget(op.operationId(), op.dlqEntryId(), 1, null), PreconditionId.ENTRY_OPEN,
                "changed since you looked");

        assertThat(decisions.discard(DecisionTarget.operation(op.operationId()), "bob", "duplicate order").outcome())
                .isEqualTo(DecisionOutcome.DONE);
        long before = streamLength();
        DecisionResult late = decisions.redrive(new DecisionTarget(op.operationId(), op.dlqEntryId(), 2, null), "alice", "retry");
        assertThat(late.outcome()).isEqualTo(DecisionOutcome.ALREADY_DECIDED);
        assertThat(late.message()).contains("already decided by bob at " + NOW).contains("DISCARDED: duplicate order");
        assertThat(streamLength()).isEqualTo(before);
    }

    @Test
    void dryRun_reportsEveryCheckAndWritesNothing() {
        Created op = fixture.deadLettered("run-dry", "charge").create();
        long before = streamLength();

        DecisionResult dry = decisions.checkRedrive(DecisionTarget.operation(op.operationId()));

        assertThat(dry.outcome()).isEqualTo(DecisionOutcome.WOULD_PASS);
        assertThat(dry.preconditions().results()).extracting(PreconditionResult::id).containsExactly(PreconditionId.RUN_ACTIVE,
                PreconditionId.TOOL_SCHEMA, PreconditionId.APPROVAL, PreconditionId.SIDE_EFFECT, PreconditionId.ENTRY_OPEN);
        assertThat(streamLength()).isEqualTo(before);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id = ?", op.operationId())).isZero();
    }

    private static void assertBlockedOnlyBy(Created op, DecisionTarget target, PreconditionId expected, String why) {
        long before = streamLength();
        long commands = ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands");
        int versionBefore = entryVersion(op);

        DecisionResult result = decisions.redrive(target, "alice", "try again");

        assertThat(result.outcome()).isIn(DecisionOutcome.BLOCKED, DecisionOutcome.ALREADY_DECIDED);
        assertThat(result.preconditions().failed()).singleElement().satisfies(failed -> {
            assertThat(failed.id()).isEqualTo(expected);
            assertThat(failed.explanation()).contains(why);
            assertThat(failed.facts()).isNotEmpty();
        });
        assertThat(result.message()).contains(why);
        assertThat(streamLength()).as("a blocked redrive publishes nothing").isEqualTo(before);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands")).isEqualTo(commands);
        assertThat(ns.jdbc().queryOne("SELECT status FROM operations WHERE operation_id = ?", row -> row.getString(1), op.operationId()))
                .contains("DEAD_LETTERED");
        assertThat(entryVersion(op)).isEqualTo(versionBefore);
    }

    private static int entryVersion(Created op) {
        return (int) ns.jdbc().queryLong("SELECT version FROM dlq_entries WHERE id = ?", op.dlqEntryId());
    }

    private static long streamLength() {
        return ns.redis().sync().xlen(ns.redis().keys().dispatch());
    }

    private static DispatchEnvelope lastDispatch() {
        List<StreamMessage<String, String>> last = ns.redis().sync().xrevrange(ns.redis().keys().dispatch(), Range.create("-", "+"),
                Limit.from(1));
        return new EnvelopeCodec().decode(last.get(0).getBody());
    }
}
