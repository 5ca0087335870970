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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

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
        try (CutCommit commit = new CutCommit(Cut.AFTER_SERVER_ANSWERED, "cut-after", "answer-cut", "{\"amount\":11}")) {
            WorkerTestKit kit = commit.kit;
            OperationId id = commit.id;
            commit.rightAfterTheCut(report -> {
                // A lone FINISH runs in autocommit: an idle server after it means it committed before the cut.
                assertThat(report.commandTags()).as("what the server answered to the cut statement")
                        .containsExactly("SELECT 1");
                assertThat(report.transactionStatus()).as("transaction status after it").isEqualTo('I');
                assertThat(kit.status(id)).as("the commit won").isEqualTo("SUCCEEDED");
                // The worker heard only a dropped connection, so it did not ack.
                assertThat(kit.pendingEntries()).as("pending entries").isEqualTo(1);
            });

            awaitAcked(kit);
            assertThat(attempts(kit, id)).as("outcome/consumer/fencing token/side effect of every attempt row")
                    .containsExactly("SUCCEEDED/cut-after/1/NONE");
            assertThat(fencingToken(kit, id)).as("no later claim: the redelivery was answered from the facts").isEqualTo(1);
            assertThat(kit.count("SELECT count(*) FROM reconciliations WHERE operation_id = ?", id.value())).isZero();
            assertThat(kit.count("SELECT count(*) FROM demo_tool_lookups WHERE idempotency_key = ?", id.idempotencyKey()))
                    .isZero();
            assertThat(kit.callsFor(id)).isEqualTo(1);
            assertOneEffectAndKeepsRunning(commit, "answer-cut");
        }
    }

    @Test
    void retryCommitRanButItsAnswerWasCut_redeliveryPublishesTheRetryAgain_oneEffect() throws Exception {
        try (CutCommit commit = new CutCommit(Cut.AFTER_SERVER_ANSWERED, "cut-retry", "retry-cut",
                "{\"amount\":13,\"fault\":\"transient:1\"}")) {
            WorkerTestKit kit = commit.kit;
            OperationId id = commit.id;
            commit.rightAfterTheCut(report -> {
                assertThat(report.transactionStatus()).as("transaction status after the cut statement").isEqualTo('I');
                // The retry is scheduled in PostgreSQL, but the worker neither put it into the retry set nor acked.
                assertThat(kit.status(id)).isEqualTo("RETRY_SCHEDULED");
                assertThat(kit.pendingEntries()).as("pending entries").isEqualTo(1);
            });

            kit.awaitStatus(id, "SUCCEEDED", SETTLED_WITHIN);
            awaitAcked(kit);
            assertThat(attempts(kit, id)).as("outcome/consumer/fencing token/side effect of every attempt row")
                    .containsExactly("RETRY_SCHEDULED/cut-retry/1/NONE", "SUCCEEDED/cut-retry/2/NONE");
            // The redelivered first dispatch found the operation a step further and, being the entry that attempt
            // came from, put its retry into the retry set again.
            assertThat(kit.jdbc().query("SELECT reason FROM audit_log WHERE operation_id = ? AND action = "
                    + "'dispatch_discarded'", row -> row.getString(1), id.value()))
                    .containsExactly("dispatch attempt 1 is older than the operation's attempt 2");
            assertThat(kit.callsFor(id)).as("the failed call and the retry's").isEqualTo(2);
            assertOneEffectAndKeepsRunning(commit, "retry-cut");
        }
    }

    @Test
    void commitCutBeforeReachingTheServer_takeoverReconcilesWithTheTool_oneEffect() throws Exception {
        try (CutCommit commit = new CutCommit(Cut.BEFORE_STATEMENT, "cut-before", "commit-cut", "{\"amount\":12}")) {
            WorkerTestKit kit = commit.kit;
            OperationId id = commit.id;
            commit.rightAfterTheCut(report -> {
                assertThat(report.transactionStatus()).as("the server never saw the statement").isNull();
                // The commit was lost: the operation still runs under the worker's first lease, the effect is done.
                assertThat(kit.jdbc().queryOne("SELECT status || '/' || lease_owner || '/' || fencing_token "
                        + "FROM operations WHERE operation_id = ?", row -> row.getString(1), id.value()))
                        .contains("RUNNING/cut-before/1");
                assertThat(kit.effectsFor(id)).isEqualTo(1);
                assertThat(kit.pendingEntries()).as("pending entries").isEqualTo(1);
            });

            kit.awaitStatus(id, "SUCCEEDED", SETTLED_WITHIN);
            awaitAcked(kit);
            // The lease ran out, the redelivery took it over (fencing token 2) and asked the tool before calling.
            assertThat(attempts(kit, id)).as("outcome/consumer/fencing token/side effect of every attempt row")
                    .containsExactly("SUCCEEDED/cut-before/2/APPLIED");
            assertThat(fencingToken(kit, id)).isEqualTo(2);
            assertThat(kit.jdbc().query("SELECT outcome || '/' || recorded_by FROM reconciliations WHERE operation_id = ?",
                    row -> row.getString(1), id.value())).containsExactly("APPLIED/cut-before");
            assertThat(kit.callsFor(id)).as("reconciled instead of calling again").isEqualTo(1);
            assertOneEffectAndKeepsRunning(commit, "commit-cut");
        }
    }

    /**
     * The cut operation's tool effect happened once; and the same worker, with no restart, runs the next operation
     * through the same pool once, committing at once.
     */
    private static void assertOneEffectAndKeepsRunning(CutCommit commit, String run) {
        WorkerTestKit kit = commit.kit;
        assertThat(kit.effectsFor(commit.id)).isEqualTo(1);
        assertThat(commit.worker.state()).isEqualTo(WorkerState.RUNNING);
        OperationId next = kit.dispatch(run, "after-the-cut", "{\"amount\":1}").operationId();
        kit.awaitStatus(next, "SUCCEEDED", SETTLED_WITHIN);
        awaitAcked(kit);
        assertThat(attempts(kit, next)).containsExactly("SUCCEEDED/" + commit.worker.consumerName() + "/1/NONE");
        assertThat(kit.effectsFor(next)).isEqualTo(1);
    }

    /** Waits until the worker has acked every entry of the dispatch stream. */
    private static void awaitAcked(WorkerTestKit kit) {
        await().atMost(SETTLED_WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> kit.pendingEntries() == 0);
    }

    private static List<String> attempts(WorkerTestKit kit, OperationId id) {
        return kit.jdbc().query("SELECT outcome || '/' || consumer || '/' || fencing_token || '/' || side_effect "
                + "FROM attempts WHERE operation_id = ? ORDER BY id", row -> row.getString(1), id.value());
    }

    private static long fencingToken(WorkerTestKit kit, OperationId id) {
        return kit.count("SELECT fencing_token FROM operations WHERE operation_id = ?", id.value());
    }

    /**
     * A worker of the charge tool, {@code consumer}, that reaches PostgreSQL through a proxy which cuts its connection
     * {@code where} at the commit's FINISH statement, with one operation of run {@code run} dispatched to it; the kit's
     * checks, client and demo tools go to PostgreSQL directly.
     */
    private static final class CutCommit implements AutoCloseable {
        final TcpProxy proxy = TcpProxy.inFrontOf(ns.config().pgUrl());
        final Database throughProxy;
        final WorkerTestKit kit;
        final Worker worker;
        final OperationId id;
        private final CompletableFuture<CutReport> cut;

        CutCommit(Cut where, String consumer, String run, String payload) {
            try {
                throughProxy = databaseThrough(proxy);
                kit = new WorkerTestKit(ns);
                cut = proxy.cutAt(FINISH_STATEMENT, where);
                worker = kit.start(kit.worker(consumer, kit.charge(Duration.ofSeconds(5)), throughProxy));
                id = kit.dispatch(run, "charge", payload).operationId();
            } catch (RuntimeException | Error e) {
                close();
                throw e;
            }
        }

        /**
         * Waits for the cut and runs {@code look} on what the proxy saw of it, while the proxy still holds every
         * statement the worker has sent since, so that the worker cannot claim, commit or ack meanwhile (each needs
         * PostgreSQL first); then lets them go.
         */
        void rightAfterTheCut(Consumer<CutReport> look) throws Exception {
            CutReport report = cut.get(SETTLED_WITHIN.toSeconds(), TimeUnit.SECONDS);
            try {
                look.accept(report);
            } finally {
                proxy.thaw();
            }
        }

        @Override
        public void close() {
            if (kit != null) {
                kit.close();
            }
            if (throughProxy != null) {
                throughProxy.close();
            }
            proxy.close();
        }

        /** The namespace's database, reached through the proxy. */
        private static Database databaseThrough(TcpProxy proxy) {
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("REDRIVE_PG_URL", proxy.jdbcUrl());
            return Database.open(RedriveConfig.fromEnvironment(env).withNamespace(ns.name()), 8);
        }
    }
}
