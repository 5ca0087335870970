package dev.redrive.triage.decision.batch;

import dev.redrive.model.FailureClass;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.MutableClock;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.precondition.PreconditionId;
import dev.redrive.triage.query.JdbcDlqQueries;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BatchDecisionsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T01:00:00Z"));
    private static final List<Duration> slept = new ArrayList<>();
    private static BatchDecisions batch;

    @BeforeAll
    static void aGroupWithMixedItems() {
        DeadLetterFixture fixture = DeadLetterFixture.withChargeTool(ns.database());
        for (int i = 1; i <= 4; i++) {
            fixture.deadLettered("run-batch", "ok-" + i).fingerprint("fp-batch").create();
        }
        fixture.deadLettered("run-gone", "charge").fingerprint("fp-batch").create();
        fixture.cancelRun("run-gone");
        fixture.deadLettered("run-batch", "uncertain").fingerprint("fp-batch").errorClass(FailureClass.UNKNOWN_SIDE_EFFECT)
                .sideEffect(SideEffectState.POSSIBLE).create();
        fixture.deadLettered("run-batch", "elsewhere").fingerprint("fp-other").create();
        Decisions decisions = TestDecisions.of(ns, clock);
        batch = new BatchDecisions(decisions, new JdbcDlqQueries(ns.database()), clock, duration -> {
            slept.add(duration);
            clock.advance(duration);
        });
    }

    @Test
    void dryRunOverAGroup_listsEachItemsChecks_thenTheRealRunDecidesThePassingOnesAtTheConfiguredRate() {
        List<DecisionTarget> group = batch.group("fp-batch").targets();
        assertThat(group).hasSize(6);
        long streamBefore = streamLength();

        BatchReport dry = batch.redrive(group, BatchOptions.dryRun("alice", "ledger is back"), BatchListener.NONE);

        assertThat(dry.items()).hasSize(6).allSatisfy(item -> assertThat(item.preconditions().results()).hasSize(5));
        assertThat(dry.count(DecisionOutcome.WOULD_PASS)).isEqualTo(4);
        assertThat(dry.count(DecisionOutcome.BLOCKED)).isEqualTo(2);
        assertThat(dry.blockedBy()).isEqualTo(Map.of(PreconditionId.RUN_ACTIVE, 1L, PreconditionId.SIDE_EFFECT, 1L));
        assertThat(dry.summary()).contains("6 item(s), dry run", "4 would pass", "2 blocked", "run_active 1", "side_effect 1");
        assertThat(streamLength()).isEqualTo(streamBefore);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands")).isZero();
        assertThat(slept).isEmpty();

        List<Integer> progress = new ArrayList<>();
        BatchReport real = batch.redrive(group, BatchOptions.of("alice", "ledger is back", 10), (done, total, result) -> progress.add(done));

        assertThat(real.count(DecisionOutcome.DONE)).isEqualTo(4);
        assertThat(real.count(DecisionOutcome.BLOCKED)).isEqualTo(2);
        assertThat(real.items()).extracting(DecisionResult::operationId)
                .containsExactlyElementsOf(dry.items().stream().map(DecisionResult::operationId).toList());
        assertThat(progress).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(streamLength()).isEqualTo(streamBefore + 4);
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM redrive_commands")).isEqualTo(4);
        assertThat(slept).hasSize(5).allMatch(duration -> duration.equals(Duration.ofMillis(100)));
        assertThat(ns.jdbc().queryLong("SELECT count(*) FROM dlq_entries WHERE error_fingerprint = 'fp-other' AND decision_state = 'OPEN'"))
                .isEqualTo(1);

        BatchReport again = batch.redrive(group, BatchOptions.of("bob", "again", 0), BatchListener.NONE);
        assertThat(again.count(DecisionOutcome.ALREADY_DECIDED)).isEqualTo(4);
    }

    @Test
    void anUnknownOperationInASelection_isReportedAsBlockedWithoutStoppingTheOthers() {
        Created known = new DeadLetterFixture(ns.database()).deadLettered("run-batch-2", "charge").create();
        List<DecisionTarget> selection = List.of(DecisionTarget.operation("run-typo:charge:0"), DecisionTarget.operation(known.operationId()));

        BatchReport report = batch.discard(selection, BatchOptions.of("bob", "duplicates", 0), BatchListener.NONE);

        assertThat(report.items()).extracting(DecisionResult::outcome).containsExactly(DecisionOutcome.BLOCKED, DecisionOutcome.DONE);
        assertThat(report.items().get(0).message()).contains("no operation 'run-typo:charge:0'");
    }

    private static long streamLength() {
        return ns.redis().sync().xlen(ns.redis().keys().dispatch());
    }
}
