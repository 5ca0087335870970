package dev.redrive.worker;

import dev.redrive.config.RedriveConfig;
import dev.redrive.identity.OperationId;
import dev.redrive.store.Database;
import dev.redrive.testing.TcpProxy;
import dev.redrive.testing.TcpProxy.Cut;
import dev.redrive.testing.TcpProxy.CutReport;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The worker's connection to PostgreSQL drops while it commits a finished attempt, so that it cannot know whether
 * the commit happened. The worker reaches PostgreSQL through a proxy that cuts the connection at the commit's FINISH
 * statement (AttemptCommits), either after the server has run it to the end or before it reaches the server; the
 * test's own checks, the client and the demo tools go to PostgreSQL directly. Whichever way the cut falls, exactly one
 * commit wins, the redelivery of the pending entry settles it (from the facts, or by reconciling with the tool), the
 * tool's effect happens once, the entry is acked and the worker carries on.
 */
class CommitCutTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    /** A fragment of the FINISH statement's text that no other statement has. */
    private static final String FINISH_STATEMENT = "finished AS (";
    private static final Duration SETTLED_WITHIN = Duration.ofSeconds(20);

    @Test
    void commitRanButItsAnswerWasCut_redeliveryIsAnsweredFromTheFacts_oneEffect() throws Exception {
        try (TcpProxy proxy = proxyToSharedPostgres();
             Database throughProxy = databaseThrough(proxy);
             WorkerTestKit kit = new WorkerTestKit(ns)) {
            var cut = proxy.cutAt(FINISH_STATEMENT, Cut.AFTER_SERVER_ANSWERED);
            Worker worker = kit.start(kit.worker("cut-after", kit.charge(Duration.ofSeconds(5)), throughProxy));
            OperationId id = kit.dispatch("answer-cut", "charge", "{\"amount\":11}").operationId();

            CutReport report = cut.get(SETTLED_WITHIN.toSeconds(), TimeUnit.SECONDS);
            rightAfterTheCut(proxy, () -> {
                // A lone FINISH runs in autocommit: an idle server after it means it committed before the cut.
                assertThat(report.commandTags()).as("what the server answered to the cut statement")
                        .containsExactly("SELECT 1");
                assertThat(report.transactionStatus()).as("transaction status after it").isEqualTo('I');
                assertThat(kit.status(id)).as("the commit won").isEqualTo("SUCCEEDED");
                // The worker heard only a dropped connection, so it did not ack.
                assertThat(kit.pendingEntries()).as("pending entries").isEqualTo(1);
            });

            await().atMost(SETTLED_WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> kit.pendingEntries() == 0);
            assertThat(attempts(kit, id)).as("outcome/consumer/fencing token/side effect of every attempt row")
                    .containsExactly("SUCCEEDED/cut-after/1/NONE");
            assertThat(fencingToken(kit, id)).as("no later claim: the redelivery was answered from the facts").isEqualTo(1);
            assertThat(kit.count("SELECT count(*) FROM reconciliations WHERE operation_id = ?", id.value())).isZero();
            assertThat(kit.count("SELECT count(*) FROM demo_tool_lookups WHERE idempotency_key = ?", id.idempotencyKey()))
                    .isZero();
            assertThat(kit.callsFor(id)).isEqualTo(1);
            assertThat(kit.effectsFor(id)).isEqualTo(1);

            assertKeepsRunning(kit, worker, "answer-cut");
        }
    }

    @Test
    void retryCommitRanButItsAnswerWasCut_redeliveryPublishesTheRetryAgain_oneEffect() throws Exception {
        try (TcpProxy proxy = proxyToSharedPostgres();
             Database throughProxy = databaseThrough(proxy);
             WorkerTestKit kit = new WorkerTestKit(ns)) {
            var cut = proxy.cutAt(FINISH_STATEMENT, Cut.AFTER_SERVER_ANSWERED);
            Worker worker = kit.start(kit.worker("cut-retry", kit.charge(Duration.ofSeconds(5)), throughProxy));
            OperationId id = kit.dispatch("retry-cut", "charge", "{\"amount\":13,\"fault\":\"transient:1\"}")
                    .operationId();

            CutReport report = cut.get(SETTLED_WITHIN.toSeconds(), TimeUnit.SECONDS);
            rightAfterTheCut(proxy, () -> {
                assertThat(report.transactionStatus()).as("transaction status after the cut statement").isEqualTo('I');
                // The retry is scheduled in PostgreSQL, but the worker neither put it into the retry set nor acked.
                assertThat(kit.status(id)).isEqualTo("RETRY_SCHEDULED");
                assertThat(kit.pendingEntries()).as("pending entries").isEqualTo(1);
            });

            kit.awaitStatus(id, "SUCCEEDED", SETTLED_WITHIN);
            await().atMost(SETTLED_WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> kit.pendingEntries() == 0);
            assertThat(attempts(kit, id)).as("outcome/consumer/fencing token/side effect of every attempt row")
                    .containsExactly("RETRY_SCHEDULED/cut-retry/1/NONE", "SUCCEEDED/cut-retry/2/NONE");
            // The redelivered first dispatch found the operation a step further and, being the entry that attempt
            // came from, put its retry into the retry set again.
            assertThat(kit.jdbc().query("SELECT reason FROM audit_log WHERE operation_id = ? AND action = "
                    + "'dispatch_discarded'", row -> row.getString(1), id.value()))
                    .containsExactly("dispatch attempt 1 is older than the operation's attempt 2");
            assertThat(kit.callsFor(id)).as("the failed call and the retry's").isEqualTo(2);
            assertThat(kit.effectsFor(id)).isEqualTo(1);

            assertKeepsRunning(kit, worker, "retry-cut");
        }
    }

    @Test
    void commitCutBeforeReachingTheServer_takeoverReconcilesWithTheTool_oneEffect() throws Exception {
        try (TcpProxy proxy = proxyToSharedPostgres();
             Database throughProxy = databaseThrough(proxy);
             WorkerTestKit kit = new WorkerTestKit(ns)) {
            var cut = proxy.cutAt(FINISH_STATEMENT, Cut.BEFORE_STATEMENT);
            Worker worker = kit.start(kit.worker("cut-before", kit.charge(Duration.ofSeconds(5)), throughProxy));
            OperationId id = kit.dispatch("commit-cut", "charge", "{\"amount\":12}").operationId();

            CutReport report = cut.get(SETTLED_WITHIN.toSeconds(), TimeUnit.SECONDS);
            rightAfterTheCut(proxy, () -> {
                assertThat(report.transactionStatus()).as("the server never saw the statement").isNull();
                // The commit was lost: the operation still runs under the worker's first lease, the effect is done.
                assertThat(kit.jdbc().queryOne("SELECT status || '/' || lease_owner || '/' || fencing_token "
                        + "FROM operations WHERE operation_id = ?", row -> row.getString(1), id.value()))
                        .contains("RUNNING/cut-before/1");
                assertThat(kit.effectsFor(id)).isEqualTo(1);
                assertThat(kit.pendingEntries()).as("pending entries").isEqualTo(1);
            });

            kit.awaitStatus(id, "SUCCEEDED", SETTLED_WITHIN);
            await().atMost(SETTLED_WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> kit.pendingEntries() == 0);
            // The lease ran out, the redelivery took it over (fencing token 2) and asked the tool before calling.
            assertThat(attempts(kit, id)).as("outcome/consumer/fencing token/side effect of every attempt row")
                    .containsExactly("SUCCEEDED/cut-before/2/APPLIED");
            assertThat(fencingToken(kit, id)).isEqualTo(2);
            assertThat(kit.jdbc().query("SELECT outcome || '/' || recorded_by FROM reconciliations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).containsExactly("APPLIED/cut-before");
            assertThat(kit.callsFor(id)).as("reconciled instead of calling again").isEqualTo(1);
            assertThat(kit.effectsFor(id)).isEqualTo(1);

            assertKeepsRunning(kit, worker, "commit-cut");
        }
    }

    /**
     * Runs {@code look} while the proxy still holds every statement the worker has sent since the cut, so that the
     * worker cannot claim, commit or ack meanwhile (each needs PostgreSQL first); then lets them go.
     */
    private static void rightAfterTheCut(TcpProxy proxy, Runnable look) {
        try {
            look.run();
        } finally {
            proxy.thaw();
        }
    }

    /** The same worker, with no restart, runs the next operation through the same pool once, committing at once. */
    private static void assertKeepsRunning(WorkerTestKit kit, Worker worker, String run) {
        assertThat(worker.state()).isEqualTo(WorkerState.RUNNING);
        OperationId next = kit.dispatch(run, "after-the-cut", "{\"amount\":1}").operationId();
        kit.awaitStatus(next, "SUCCEEDED", SETTLED_WITHIN);
        await().atMost(SETTLED_WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> kit.pendingEntries() == 0);
        assertThat(attempts(kit, next)).containsExactly("SUCCEEDED/" + worker.consumerName() + "/1/NONE");
        assertThat(kit.effectsFor(next)).isEqualTo(1);
    }

    private static List<String> attempts(WorkerTestKit kit, OperationId id) {
        return kit.jdbc().query("SELECT outcome || '/' || consumer || '/' || fencing_token || '/' || side_effect "
                + "FROM attempts WHERE operation_id = ? ORDER BY id", row -> row.getString(1), id.value());
    }

    private static long fencingToken(WorkerTestKit kit, OperationId id) {
        return kit.count("SELECT fencing_token FROM operations WHERE operation_id = ?", id.value());
    }

    /** A proxy in front of the PostgreSQL server the namespace lives on. */
    private static TcpProxy proxyToSharedPostgres() {
        return TcpProxy.inFrontOf(ns.config().pgUrl());
    }

    /** The namespace's database, reached through the proxy. */
    private static Database databaseThrough(TcpProxy proxy) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("REDRIVE_PG_URL", proxy.jdbcUrl());
        return Database.open(RedriveConfig.fromEnvironment(env).withNamespace(ns.name()), 8);
    }
}
