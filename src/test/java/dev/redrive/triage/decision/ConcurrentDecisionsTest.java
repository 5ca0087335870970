package dev.redrive.triage.decision;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.redrive.store.Jdbc;
import dev.redrive.testing.TestNamespace;
import dev.redrive.testing.TestDecisions;
import dev.redrive.triage.DeadLetterFixture;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.precondition.DecisionTarget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Operators deciding the same entry at the same moment: exactly one wins, the others learn who did and when. */
class ConcurrentDecisionsTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final String[] OPERATORS = {"alice", "bob", "chen", "dana", "eve", "farid"};
    private static DeadLetterFixture fixture;
    private static Decisions decisions;
    private static int round;

    @BeforeAll
    static void tools() {
        fixture = DeadLetterFixture.withChargeTool(ns.database());
        decisions = TestDecisions.of(ns);
    }

    @RepeatedTest(3)
    void sixOperatorsAtOnce_exactlyOneDecisionWins() throws Exception {
        Created op = fixture.deadLettered("run-race", "charge-" + round++).create();
        DecisionTarget seen = new DecisionTarget(op.operationId(), op.dlqEntryId(), 0, null);
        long streamBefore = ns.redis().sync().xlen(ns.redis().keys().dispatch());
        CountDownLatch start = new CountDownLatch(1);
        List<Callable<DecisionResult>> decide = new ArrayList<>();
        for (int i = 0; i < OPERATORS.length; i++) {
            String operator = OPERATORS[i];
            int kind = i % 3;
            decide.add(() -> {
                start.await();
                return switch (kind) {
                    case 0 -> decisions.redrive(seen, operator, "dependency recovered");
                    case 1 -> decisions.discard(seen, operator, "duplicate");
                    default -> decisions.resolve(seen, JsonNodeFactory.instance.objectNode().put("manual", true), operator, "done by hand");
                };
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(OPERATORS.length);
        List<Future<DecisionResult>> futures = new ArrayList<>();
        for (Callable<DecisionResult> task : decide) {
            futures.add(pool.submit(task));
        }
        start.countDown();
        List<DecisionResult> results = new ArrayList<>();
        for (Future<DecisionResult> future : futures) {
            results.add(future.get());
        }
        pool.shutdown();

        List<DecisionResult> winners = results.stream().filter(DecisionResult::recorded).toList();
        assertThat(winners).hasSize(1);
        DecisionResult winner = winners.get(0);
        Jdbc jdbc = ns.database().jdbc();
        String decidedBy = jdbc.queryOne("SELECT decided_by FROM dlq_entries WHERE id = ?", row -> row.getString(1), op.dlqEntryId()).orElseThrow();
        assertThat(winner.operator()).isEqualTo(decidedBy);
        assertThat(results).filteredOn(result -> !result.recorded()).hasSize(OPERATORS.length - 1).allSatisfy(loser -> {
            assertThat(loser.outcome()).isEqualTo(DecisionOutcome.ALREADY_DECIDED);
            assertThat(loser.message()).startsWith("already decided by " + decidedBy + " at ");
        });
        assertThat(jdbc.queryLong("SELECT count(*) FROM audit_log WHERE dlq_entry_id = ? AND action IN ('REDRIVE', 'RESOLVE', 'DISCARD')",
                op.dlqEntryId())).isEqualTo(1);
        long published = ns.redis().sync().xlen(ns.redis().keys().dispatch()) - streamBefore;
        assertThat(published).isEqualTo(winner.kind() == DecisionKind.REDRIVE ? 1 : 0);
    }
}
