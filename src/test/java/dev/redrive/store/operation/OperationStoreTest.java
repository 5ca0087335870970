package dev.redrive.store.operation;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.model.LastCall;
import dev.redrive.model.OperationStatus;
import dev.redrive.model.SideEffectState;
import dev.redrive.store.deadletter.ErrorFingerprint;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class OperationStoreTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Duration LEASE = Duration.ofSeconds(10);
    private final Instant t0 = Instant.parse("2026-11-30T00:00:00Z");

    private final AttemptCommits commits = new AttemptCommits(ns.database().jdbc());

    private OperationStore store() {
        return new OperationStore(ns.database().jdbc());
    }

    private OperationId record(String run) {
        OperationId id = new OperationId(run, "n1", 0);
        new OperationRegistry(ns.database().jdbc()).record(new DispatchEnvelope(id, 1, "demo.charge", "1",
                id.idempotencyKey(), "{\"amount\":1}", "trace-1", "corr-1", "test", t0, null, null, null, null, null),
                OperationStatus.PENDING);
        return id;
    }

    @Test
    void staleLeaseHolderCannotCommitAfterTakeover() {
        OperationId id = record("fence");
        OperationStore store = store();
        Lease first = single(claim(store, List.of(request(id, "1-1")), "a", t0, LEASE));
        assertThat(claim(store, List.of(request(id, "1-2")), "b", t0.plusSeconds(1), LEASE))
                .as("a live lease is not claimed twice").isEmpty();

        Instant afterExpiry = t0.plus(LEASE).plusSeconds(1);
        Lease second = single(claim(store, List.of(request(id, "1-1")), "b", afterExpiry, LEASE));
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());

        List<CommitResult> stale = commits.commit(List.of(succeeded(first, afterExpiry)));
        List<CommitResult> current = commits.commit(List.of(succeeded(second, afterExpiry.plusSeconds(1))));

        assertThat(stale.get(0).committed()).isFalse();
        assertThat(current.get(0).committed()).isTrue();
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM attempts WHERE operation_id = ?", id.value()))
                .isEqualTo(1);
        assertThat(store.load(List.of(id.value())).get(id.value()).status()).isEqualTo(OperationStatus.SUCCEEDED);
    }

    @Test
    void claimReadsTheFactsFromBeforeIt_countsProcessingDeliveriesButNotRefusedOnes_andSettlingResetsThem() {
        OperationId id = record("processing");
        OperationStore store = store();
        List<String> ids = List.of(id.value());
        List<ClaimRequest> request = List.of(request(id, "1-1"));

        OperationStore.Sighting first = store.claimAndLoad(ids, request, "a", t0, LEASE);
        assertThat(first.records().get(id.value()).status()).isEqualTo(OperationStatus.PENDING);
        assertThat(first.records().get(id.value()).processingDeliveries()).isZero();
        assertThat(first.leases().get(id.value())).satisfies(lease -> {
            assertThat(lease.processingDeliveries()).isEqualTo(1);
            assertThat(lease.takeover()).isFalse();
        });

        OperationStore.Sighting refused = store.claimAndLoad(ids, request, "b", t0.plusSeconds(1), LEASE);
        assertThat(refused.leases()).as("a live lease is not claimed twice").isEmpty();
        assertThat(refused.records().get(id.value()).leaseOwner()).isEqualTo("a");

        Instant afterExpiry = t0.plus(LEASE).plusSeconds(1);
        OperationStore.Sighting takeover = store.claimAndLoad(ids, request, "b", afterExpiry, LEASE);
        assertThat(takeover.records().get(id.value()).status()).isEqualTo(OperationStatus.RUNNING);
        assertThat(takeover.records().get(id.value()).processingDeliveries()).as("the refused claim did not count")
                .isEqualTo(1);
        Lease second = takeover.leases().get(id.value());
        assertThat(second.processingDeliveries()).isEqualTo(2);
        assertThat(second.takeover()).isTrue();

        assertThat(commits.commit(List.of(succeeded(second, afterExpiry.plusSeconds(1)))).get(0).committed()).isTrue();
        OperationFacts settled = store.load(ids).get(id.value());
        assertThat(settled.status()).isEqualTo(OperationStatus.SUCCEEDED);
        assertThat(settled.processingDeliveries()).isZero();
        assertThat(ns.database().jdbc().queryOne("SELECT consumer || '/' || fencing_token || '/' || outcome FROM attempts"
                + " WHERE operation_id = ?", row -> row.getString(1), id.value()))
                .contains("b/" + second.fencingToken() + "/SUCCEEDED");
    }

    @Test
    void deferral_leavesAnOperationAnotherWorkerClaimedMeanwhile_andDefersOneThatIsWaiting() {
        OperationStore store = store();
        OperationId claimed = record("defer-claimed");
        OperationId waiting = record("defer-waiting");
        single(claim(store, List.of(request(claimed, "1-1")), "b", t0, LEASE));

        Instant until = t0.plusSeconds(30);
        List<Deferral> deferred = store.defer(List.of(
                new Deferral(claimed.value(), 1, until, FailureClass.DEPENDENCY_DOWN),
                new Deferral(waiting.value(), 1, until, FailureClass.DEPENDENCY_DOWN)), t0.plusSeconds(1));

        assertThat(deferred).extracting(Deferral::operationId).containsExactly(waiting.value());
        Map<String, OperationFacts> records = store.load(List.of(claimed.value(), waiting.value()));
        assertThat(records.get(claimed.value()).status()).isEqualTo(OperationStatus.RUNNING);
        assertThat(records.get(claimed.value()).leaseOwner()).isEqualTo("b");
        assertThat(records.get(waiting.value()).status()).isEqualTo(OperationStatus.RETRY_SCHEDULED);
    }

    @Test
    void renewal_extendsTheLeasesStillHeld_notOneTakenOverNorOneFinished() {
        OperationStore store = store();
        OperationId held = record("renew-held");
        OperationId takenOver = record("renew-taken");
        OperationId finished = record("renew-finished");
        List<Lease> leases = claim(store, List.of(request(held, "1-1"),
                request(takenOver, "1-2"),
                request(finished, "1-3")), "a", t0, LEASE);
        Map<String, Lease> byId = leases.stream().collect(Collectors.toMap(Lease::operationId, lease -> lease));
        Instant afterExpiry = t0.plus(LEASE).plusSeconds(1);
        single(claim(store, List.of(request(takenOver, "1-2")), "b", afterExpiry, LEASE));
        commits.commit(List.of(succeeded(byId.get(finished.value()), t0.plusSeconds(1))));

        Instant renewedUntil = afterExpiry.plus(LEASE);
        assertThat(store.renew(leases, "a", renewedUntil)).containsExactly(held.value());
        assertThat(store.renew(List.of(byId.get(held.value())), "b", renewedUntil)).as("only its owner renews a lease").isEmpty();

        Map<String, OperationFacts> records = store.load(List.of(held.value(), takenOver.value()));
        assertThat(records.get(held.value()).leaseExpiresAt()).isEqualTo(renewedUntil);
        assertThat(records.get(held.value()).fencingToken()).isEqualTo(byId.get(held.value()).fencingToken());
        assertThat(records.get(takenOver.value()).leaseOwner()).isEqualTo("b");
        assertThat(records.get(takenOver.value()).leaseExpiresAt()).isEqualTo(afterExpiry.plus(LEASE));
        assertThat(commits.commit(List.of(succeeded(byId.get(takenOver.value()), renewedUntil))).get(0).committed())
                .as("the attempt whose lease was taken over still cannot commit").isFalse();
    }

    @Test
    void deadLetterKeepsAttemptHistoryAndIsWrittenOnce() {
        OperationId id = record("dead");
        OperationStore store = store();
        Lease lease = single(claim(store, List.of(request(id, "5-0")), "a", t0, LEASE));
        AttemptError error = new AttemptError(FailureClass.INVALID_INPUT, "http_400", "amount 12 is invalid");
        AttemptCommit commit = new AttemptCommit(lease, new DeliveryInfo("ns:dispatch", "5-0", 1, "a"),
                OperationStatus.DEAD_LETTERED, t0.plusSeconds(1), null, error, null, null, SideEffectState.NONE,
                LastCall.ANSWERED_FAILURE, null, new AttemptCommit.DeadLetterEvidence(Map.of("operation_id", id.value()), "[]",
                        ErrorFingerprint.of("demo.charge", FailureClass.INVALID_INPUT, "http_400", error.message()),
                        "test"));

        CommitResult result = commits.commit(List.of(commit)).get(0);

        assertThat(result.deadLetter()).isNotNull();
        assertThat(ns.database().jdbc().queryOne("""
                SELECT jsonb_array_length(attempt_history) AS n, attempt_history->0->>'error_class' AS class,
                       trace_id, raw_message->>'operation_id' AS raw
                  FROM dlq_entries WHERE id = ?""",
                row -> row.getInt("n") + "/" + row.getString("class") + "/" + row.getString("trace_id") + "/"
                        + row.getString("raw"), result.deadLetter().dlqEntryId()))
                .contains("1/INVALID_INPUT/trace-1/" + id.value());
        assertThat(ErrorFingerprint.of("demo.charge", FailureClass.INVALID_INPUT, "http_400", "amount 977 is invalid"))
                .isEqualTo(result.deadLetter().fingerprint());
    }

    private AttemptCommit succeeded(Lease lease, Instant at) {
        return new AttemptCommit(lease, new DeliveryInfo("ns:dispatch", "1-1", 1, lease.owner()),
                OperationStatus.SUCCEEDED, at.truncatedTo(ChronoUnit.MILLIS), "{\"ok\":true}", null, null, null,
                SideEffectState.NONE, LastCall.NONE, null, null);
    }

    /** A claim for attempt 1 of an operation {@link #record} recorded, with its parameters. */
    private static ClaimRequest request(OperationId id, String entryId) {
        return new ClaimRequest(id.value(), 1, entryId, null, "demo.charge", "1", id.idempotencyKey(), "{\"amount\":1}");
    }

    /** Claims as a worker does: the facts of the same operations are read in the same statement. */
    private static List<Lease> claim(OperationStore store, List<ClaimRequest> requests, String owner, Instant now,
                                     Duration lease) {
        return List.copyOf(store.claimAndLoad(requests.stream().map(ClaimRequest::operationId).toList(), requests,
                owner, now, lease).leases().values());
    }

    private static Lease single(List<Lease> leases) {
        assertThat(leases).hasSize(1);
        return leases.get(0);
    }
}
