package dev.redrive.triage.request;

import dev.redrive.store.StoreException;
import dev.redrive.testing.DatabaseLogin;
import dev.redrive.testing.LoginsFixture;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.DeadLetterFixture.Created;
import dev.redrive.triage.MutableClock;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.precondition.DecisionTarget;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.worker.client.WorkerClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Four-eyes with real logins: alice asks, bob (or carol) approves, each connected as themselves; the database refuses
 * alice's approval of her own request whatever the client does, and a viewer's; an approval re-checks every
 * precondition and takes the decision once.
 */
class FourEyesTest {
    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final LoginsFixture logins = new LoginsFixture(ns);

    private static final MutableClock clock = new MutableClock(Instant.now());
    private static DatabaseLogin alice;
    private static DatabaseLogin bob;
    private static DatabaseLogin carol;
    private static DatabaseLogin viewer;
    private static int node;

    @BeforeAll
    static void start() {
        alice = logins.operator("alice");
        bob = logins.operator("bob");
        carol = logins.operator("carol");
        viewer = logins.viewer("vik");
    }

    private static DecisionRequests as(DatabaseLogin login) {
        WorkerClient client = new WorkerClient(login.database(), ns.redis(), clock);
        return new DecisionRequests(login.database(), DispatchPublisher.of(() -> client), Redactor.defaults(), clock,
                Sleeper.SYSTEM);
    }

    /** The schema owner's login, which everyone shares in the sandbox. */
    private static DecisionRequests asOwner() {
        WorkerClient client = new WorkerClient(ns.database(), ns.redis(), clock);
        return new DecisionRequests(ns.database(), DispatchPublisher.of(() -> client), Redactor.defaults(), clock,
                Sleeper.SYSTEM);
    }

    private static void policy(FourEyesPolicy policy) {
        new PolicyStore(ns.database()).write(policy, "carol", clock.instant());
    }

    private static Created deadLettered(String run) {
        return logins.deadLetters().deadLettered(run, "charge-" + node++).create();
    }

    private static DecisionRequest requestRedrive(Created op) {
        Submission submission = as(alice).submitIfCovered(RequestKind.REDRIVE,
                List.of(DecisionTarget.operation(op.operationId())), null, RequestOptions.redrive(null, 0), "alice",
                "ledger is back").orElseThrow();
        assertThat(submission.recorded()).as(submission.message()).isTrue();
        return submission.request();
    }

    private static long commands(String operationId) {
        return logins.admin().queryLong("SELECT count(*) FROM redrive_commands WHERE operation_id = ?", operationId);
    }

    private static String state(long requestId) {
        return logins.admin().queryOne("SELECT state FROM decision_requests WHERE id = ?", row -> row.getString(1), requestId)
                .orElseThrow();
    }

    @Test
    void aliceCannotApproveHerOwnRequest_evenWithPlainSql_bobCan_andTheRedriveHappensOnce() {
        policy(FourEyesPolicy.of(true, null, false, List.of("demo.charge"), null));
        Created op = deadLettered("run-own");
        DecisionRequest request = requestRedrive(op);
        assertThat(request.requestedLogin()).isEqualTo(alice.login());
        assertThat(commands(op.operationId())).isZero();

        ApprovalResult own = as(alice).approve(request.id(), "bob");
        assertThat(own.outcome()).isEqualTo(DecisionOutcome.REFUSED);
        assertThat(own.message()).contains("a second operator must approve it");
        assertThatThrownBy(() -> alice.database().jdbc().update("UPDATE decision_requests SET state = 'APPROVED', "
                + "decided_by = 'bob', decided_at = now() WHERE id = ?", request.id()))
                .isInstanceOf(StoreException.class).matches(e -> ((StoreException) e).isRefused())
                .hasMessageContaining("a second operator must approve it");
        assertThat(state(request.id())).isEqualTo("PENDING");
        assertThat(commands(op.operationId())).isZero();

        ApprovalResult approved = as(bob).approve(request.id(), "bob");
        ApprovalResult again = as(carol).approve(request.id(), "carol");

        assertThat(approved.outcome()).as(approved.message()).isEqualTo(DecisionOutcome.DONE);
        assertThat(again.outcome()).isEqualTo(DecisionOutcome.ALREADY_DECIDED);
        assertThat(again.message()).contains("already approved by bob (login " + bob.login() + ")");
        assertThat(commands(op.operationId())).isEqualTo(1);
        assertThat(logins.admin().queryOne("SELECT operator || '/' || db_login FROM redrive_commands WHERE operation_id = ?",
                row -> row.getString(1), op.operationId())).contains("bob/" + bob.login());
        assertThat(logins.admin().queryOne("SELECT status || '/' || attempt FROM operations WHERE operation_id = ?",
                row -> row.getString(1), op.operationId())).contains("PENDING/" + (op.attempt() + 1));
        DecisionRequest decided = as(bob).find(request.id()).orElseThrow();
        assertThat(decided.state()).isEqualTo(RequestState.APPROVED);
        assertThat(decided.decidedLogin()).isEqualTo(bob.login());
        assertThat(decided.result().path("outcome").asText()).isEqualTo("DONE");
        assertThat(logins.admin().queryOne("""
                SELECT db_login || ' ' || (details->>'requested_by') || ' ' || (details->>'requested_login')
                  FROM audit_log WHERE action = 'REQUEST_APPROVED' AND (details->>'request_id')::bigint = ?""",
                row -> row.getString(1), request.id())).contains(bob.login() + " alice " + alice.login());
        assertThat(logins.admin().queryOne("SELECT db_login || ' ' || reason FROM audit_log WHERE action = 'REDRIVE' "
                + "AND operation_id = ?", row -> row.getString(1), op.operationId()))
                .contains(bob.login() + " ledger is back (request " + request.id() + " by alice)");
    }

    @Test
    void aliceCannotApproveHerOwnRequestThroughTheSharedOwnerLogin_byTypingHerName() {
        policy(FourEyesPolicy.of(true, null, false, List.of("demo.charge"), null));
        Created op = deadLettered("run-own-owner");
        DecisionRequest request = requestRedrive(op);

        ApprovalResult own = asOwner().approve(request.id(), " ALICE ");

        assertThat(own.outcome()).isEqualTo(DecisionOutcome.REFUSED);
        assertThat(own.message()).contains("a second operator must approve it");
        assertThat(state(request.id())).isEqualTo("PENDING");
        ApprovalResult bobThroughTheOwner = asOwner().approve(request.id(), "bob");
        assertThat(bobThroughTheOwner.outcome()).as(bobThroughTheOwner.message()).isEqualTo(DecisionOutcome.DONE);
        assertThat(commands(op.operationId())).isEqualTo(1);
    }

    @Test
    void aViewerCannotApprove() {
        policy(FourEyesPolicy.of(true, null, false, List.of(), null));
        Created op = deadLettered("run-viewer");
        DecisionRequest request = requestRedrive(op);

        ApprovalResult refused = as(viewer).approve(request.id(), "vik");

        assertThat(refused.outcome()).isEqualTo(DecisionOutcome.REFUSED);
        assertThat(refused.message()).contains("viewer");
        assertThatThrownBy(() -> viewer.database().jdbc().update("UPDATE " + ns.name() + ".decision_requests SET "
                + "state = 'APPROVED', decided_by = 'vik', decided_at = now() WHERE id = ?", request.id()))
                .isInstanceOf(StoreException.class).matches(e -> ((StoreException) e).isRefused());
        assertThat(as(viewer).pending()).extracting(DecisionRequest::id).contains(request.id());
        assertThat(state(request.id())).isEqualTo("PENDING");
        assertThat(commands(op.operationId())).isZero();
    }

    @Test
    void aRunCancelledBetweenRequestAndApproval_blocksTheApproval_andTheRequestStaysPending() {
        policy(FourEyesPolicy.of(true, null, false, List.of("demo.charge"), null));
        Created op = deadLettered("run-cancelled-later");
        DecisionRequest request = requestRedrive(op);
        logins.deadLetters().cancelRun("run-cancelled-later");

        ApprovalResult blocked = as(bob).approve(request.id(), "bob");

        assertThat(blocked.outcome()).isEqualTo(DecisionOutcome.BLOCKED);
        assertThat(blocked.message()).contains("stays pending", "cancelled");
        assertThat(state(request.id())).isEqualTo("PENDING");
        assertThat(commands(op.operationId())).isZero();
        assertThat(logins.admin().queryLong("SELECT count(*) FROM audit_log WHERE action = 'REQUEST_APPROVED' "
                + "AND (details->>'request_id')::bigint = ?", request.id())).isZero();
    }

    @Test
    void anExpiredRequest_cannotBeApproved() {
        policy(FourEyesPolicy.of(true, null, false, List.of(), Duration.ofHours(1)));
        Created op = deadLettered("run-expired");
        DecisionRequest request = requestRedrive(op);
        assertThat(request.expiresAt()).isEqualTo(request.requestedAt().plus(Duration.ofHours(1)));
        clock.advance(Duration.ofHours(2));

        assertThat(as(bob).pending()).extracting(DecisionRequest::id).doesNotContain(request.id());
        ApprovalResult expired = as(bob).approve(request.id(), "bob");

        assertThat(expired.outcome()).isEqualTo(DecisionOutcome.BLOCKED);
        assertThat(expired.message()).contains("expired");
        assertThat(state(request.id())).isEqualTo("EXPIRED");
        assertThat(commands(op.operationId())).isZero();
        assertThat(as(carol).approve(request.id(), "carol").outcome()).isEqualTo(DecisionOutcome.BLOCKED);
    }

    @Test
    void aBatchOverN_becomesARequest_andItsApprovalDecidesTheBatch() {
        policy(FourEyesPolicy.of(true, 2, false, List.of(), null));
        List<Created> ops = List.of(deadLettered("run-batch"), deadLettered("run-batch"), deadLettered("run-batch"));
        List<DecisionTarget> three = ops.stream().map(op -> DecisionTarget.operation(op.operationId())).toList();
        DecisionRequests requests = as(alice);

        assertThat(requests.wouldWait(RequestKind.REDRIVE, three.subList(0, 2))).isEmpty();
        assertThat(requests.wouldWait(RequestKind.REDRIVE, three)).hasValueSatisfying(why -> assertThat(why)
                .contains("more than 2"));
        Submission submission = requests.submitIfCovered(RequestKind.REDRIVE, three, "group fp-transient",
                RequestOptions.redrive(null, 0), "alice", "dependency recovered").orElseThrow();
        assertThat(submission.recorded()).isTrue();
        assertThat(requests.countPending()).isGreaterThanOrEqualTo(1);
        assertThat(ops).allSatisfy(op -> assertThat(commands(op.operationId())).isZero());

        ApprovalResult approved = as(bob).approve(submission.request().id(), "bob");

        assertThat(approved.outcome()).isEqualTo(DecisionOutcome.DONE);
        assertThat(approved.items()).hasSize(3).allSatisfy(item -> assertThat(item.outcome())
                .isEqualTo(DecisionOutcome.DONE));
        assertThat(ops).allSatisfy(op -> assertThat(commands(op.operationId())).isEqualTo(1));
        assertThat(as(bob).find(submission.request().id()).orElseThrow().result().path("items")).hasSize(3);
    }

    @Test
    void twoApprovalsAtOnce_takeTheDecisionOnce() throws Exception {
        policy(FourEyesPolicy.of(true, null, false, List.of(), null));
        Created op = deadLettered("run-race");
        DecisionRequest request = requestRedrive(op);
        CountDownLatch start = new CountDownLatch(1);
        List<Callable<ApprovalResult>> approvals = List.of(
                () -> {
                    start.await();
                    return as(bob).approve(request.id(), "bob");
                },
                () -> {
                    start.await();
                    return as(carol).approve(request.id(), "carol");
                });
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<ApprovalResult>> futures = new ArrayList<>();
        approvals.forEach(approval -> futures.add(pool.submit(approval)));
        start.countDown();
        List<ApprovalResult> results = new ArrayList<>();
        for (Future<ApprovalResult> future : futures) {
            results.add(future.get());
        }
        pool.shutdown();

        assertThat(results).extracting(ApprovalResult::outcome)
                .containsExactlyInAnyOrder(DecisionOutcome.DONE, DecisionOutcome.ALREADY_DECIDED);
        assertThat(commands(op.operationId())).isEqualTo(1);
        assertThat(logins.admin().queryLong("SELECT count(*) FROM audit_log WHERE action = 'REQUEST_APPROVED' "
                + "AND (details->>'request_id')::bigint = ?", request.id())).isEqualTo(1);
    }

    @Test
    void policyOff_restoresDirectDecisions() {
        policy(FourEyesPolicy.of(true, null, false, List.of(), null));
        Created op = deadLettered("run-off");
        List<DecisionTarget> target = List.of(DecisionTarget.operation(op.operationId()));
        assertThat(as(alice).wouldWait(RequestKind.DISCARD, target)).isPresent();

        policy(FourEyesPolicy.of(false, null, false, List.of(), null));

        assertThat(as(alice).wouldWait(RequestKind.DISCARD, target)).isEmpty();
        assertThat(as(alice).submitIfCovered(RequestKind.DISCARD, target, null, RequestOptions.NONE, "alice",
                "duplicate")).isEmpty();
        assertThat(logins.admin().queryOne("SELECT db_login || ' ' || (details->>'after') FROM audit_log "
                + "WHERE action = 'POLICY_CHANGED' ORDER BY id DESC LIMIT 1", row -> row.getString(1)))
                .hasValueSatisfying(line -> assertThat(line).endsWith("four-eyes off"));
    }

    @Test
    void onlyTheSchemaOwnerChangesThePolicy_andTheRulesCoverWhatTheySay() {
        assertThatThrownBy(() -> new PolicyStore(alice.database()).write(FourEyesPolicy.of(false, null, false,
                List.of(), null), "alice", clock.instant()))
                .isInstanceOf(StoreException.class).matches(e -> ((StoreException) e).isRefused());

        FourEyesPolicy rules = FourEyesPolicy.of(true, 10, true, List.of("demo.charge"), null);
        assertThat(rules.covers(RequestKind.CORRECT, 1, Set.of("other.tool"))).isPresent();
        assertThat(rules.covers(RequestKind.REDRIVE, 1, Set.of("demo.charge"))).isPresent();
        assertThat(rules.covers(RequestKind.REDRIVE, 11, Set.of("other.tool"))).isPresent();
        assertThat(rules.covers(RequestKind.DISCARD, 10, Set.of("other.tool"))).isEmpty();
        assertThat(FourEyesPolicy.of(true, null, false, List.of("demo.charge"), null)
                .covers(RequestKind.CORRECT, 1, Set.of("demo.charge"))).isEmpty();
    }

    @Test
    void twoOperatorsAskingForTheSameDecisionAtOnce_leaveOneRequest_whateverTheOrderTheyNamedItsItems() throws Exception {
        policy(FourEyesPolicy.of(true, null, false, List.of("demo.charge"), null));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 8; round++) {
                Created first = deadLettered("run-same-" + round);
                Created second = deadLettered("run-same-" + round);
                List<DecisionTarget> named = List.of(DecisionTarget.operation(first.operationId()),
                        DecisionTarget.operation(second.operationId()));
                List<DecisionTarget> reversed = List.of(named.get(1), named.get(0));
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Submission>> asked = new ArrayList<>();
                for (var login : List.of(Map.entry(alice, named), Map.entry(carol, reversed))) {
                    DecisionRequests requests = as(login.getKey());
                    asked.add(pool.submit(() -> {
                        go.await();
                        return requests.submitIfCovered(RequestKind.DISCARD, login.getValue(), null,
                                RequestOptions.NONE, login.getKey().login(), "duplicates").orElseThrow();
                    }));
                }
                go.countDown();

                long id = asked.get(0).get().request().id();
                assertThat(asked.get(1).get().request().id()).as("round " + round).isEqualTo(id);
                assertThat(logins.admin().queryLong("SELECT count(*) FROM decision_requests WHERE id >= ?", id))
                        .isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
