package dev.redrive.store.operation;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A group commit and a batch claim of overlapping operations, each made to stop in the middle of its statement (a row
 * it needs is held by a third transaction) at the worst moment: with each statement taking its rows in its own order,
 * the commit would hold {@code a} and wait for {@code b} while the claim holds {@code b} and waits for {@code a}, and
 * PostgreSQL would abort one of them as a deadlock. Both take their rows in operation_id order, so the second waits for
 * the first before it holds anything the first needs, and both complete. Real PostgreSQL, four connections; the test
 * waits on pg_stat_activity for each statement to be blocked, never on time.
 */
class LockOrderTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration LEASE = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

    private final OperationStore store = new OperationStore(ns.database().jdbc());
    private final AttemptCommits commits = new AttemptCommits(ns.database().jdbc());

    @Test
    void aGroupCommitAndABatchClaimOfTheSameRows_bothStoppedMidStatement_bothComplete() throws Exception {
        recordOthers(2000);
        OperationId a = record("a");
        OperationId b = record("b");
        OperationId x = record("x");
        OperationId y = record("y");
        Map<String, Lease> held = store.claimAndLoad(ids(a, b, x), List.of(request(a), request(b), request(x)), "w1", T0,
                LEASE).leases();

        try (Connection holdsX = lock(x); Connection holdsY = lock(y)) {
            String[] holders = {backendPid(holdsX), backendPid(holdsY)};
            // The commit names its rows a, x, b and the claim b, y, a: taken in the order named, the commit would get a
            // and stop at x, the claim would get b and stop at y, and once x and y are free each would wait for the other.
            CompletableFuture<List<CommitResult>> commit = CompletableFuture.supplyAsync(() -> commits.commit(List.of(
                    succeeded(held.get(a.value())), succeeded(held.get(x.value())), succeeded(held.get(b.value())))));
            awaitBlocked(holders, 1);
            Instant afterTheLeases = T0.plus(LEASE).plusSeconds(1);
            CompletableFuture<OperationStore.Sighting> claim = CompletableFuture.supplyAsync(() -> store.claimAndLoad(
                    ids(b, y, a), List.of(request(b), request(y), request(a)), "w2", afterTheLeases, LEASE));
            awaitBlocked(holders, 2);

            holdsX.commit();
            holdsY.commit();

            assertThat(commit.get(1, TimeUnit.MINUTES)).allMatch(CommitResult::committed);
            assertThat(claim.get(1, TimeUnit.MINUTES).leases()).as("a and b were settled by the commit it waited for")
                    .containsOnlyKeys(y.value());
        }
        Map<String, OperationFacts> records = store.load(ids(a, b, x, y));
        assertThat(records.values()).extracting(OperationFacts::status).containsExactlyInAnyOrder(
                OperationStatus.SUCCEEDED, OperationStatus.SUCCEEDED, OperationStatus.SUCCEEDED, OperationStatus.RUNNING);
        assertThat(records.get(y.value()).leaseOwner()).isEqualTo("w2");
    }

    /**
     * Operations the statements do not name, so that the planner reads the named rows as it does in a worker's store:
     * by index, in the order they are named (a seq scan of a near-empty table would take them in one order for all).
     */
    private static void recordOthers(int count) {
        new OperationRegistry(ns.database().jdbc()).recordAll(IntStream.range(0, count)
                .mapToObj(i -> envelope(new OperationId("others", "n" + i, 0))).toList(), any -> OperationStatus.SUCCEEDED);
        ns.database().jdbc().update("ANALYZE operations");
    }

    private static OperationId record(String node) {
        OperationId id = new OperationId("lock-order", node, 0);
        new OperationRegistry(ns.database().jdbc()).record(envelope(id), OperationStatus.PENDING);
        return id;
    }

    private static DispatchEnvelope envelope(OperationId id) {
        return new DispatchEnvelope(id, 1, "demo.charge", "1", id.idempotencyKey(), "{\"amount\":1}", null, null, "test",
                T0, null, null, null, null, null);
    }

    private static List<String> ids(OperationId... ids) {
        return Arrays.stream(ids).map(OperationId::value).toList();
    }

    private static ClaimRequest request(OperationId id) {
        return new ClaimRequest(id.value(), 1, "1-" + id.nodeId(), null, "demo.charge", "1", id.idempotencyKey(),
                "{\"amount\":1}");
    }

    private static AttemptCommit succeeded(Lease lease) {
        return new AttemptCommit(lease, new DeliveryInfo("ns:dispatch", "1-0", 1, lease.owner()),
                OperationStatus.SUCCEEDED, T0.plusSeconds(1), "{\"ok\":true}", null, null, null, SideEffectState.NONE,
                LastCall.NONE, null, null);
    }

    /** A transaction of its own that holds the operation's row locked until it commits. */
    private static Connection lock(OperationId id) throws SQLException {
        Connection connection = ns.database().connection();
        connection.setAutoCommit(false);
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT 1 FROM operations WHERE operation_id = ? FOR NO KEY UPDATE")) {
            select.setString(1, id.value());
            select.executeQuery().close();
        }
        return connection;
    }

    private static String backendPid(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT pg_backend_pid()");
             ResultSet row = select.executeQuery()) {
            row.next();
            return row.getString(1);
        }
    }

    /** Waits until {@code count} backends wait, directly or through one another, for the holders' transactions. */
    private static void awaitBlocked(String[] holders, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> ns.database().jdbc().queryLong("""
                WITH RECURSIVE blocked(pid) AS (
                    SELECT pid FROM pg_stat_activity WHERE pg_blocking_pids(pid) && ?::text[]::int[]
                    UNION
                    SELECT a.pid FROM pg_stat_activity a JOIN blocked b ON b.pid = ANY (pg_blocking_pids(a.pid)))
                SELECT count(*) FROM blocked""", (Object) holders) == count);
    }
}
