package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.Jdbc;
import dev.redrive.store.operation.ClaimRequest;
import dev.redrive.store.operation.OperationFacts;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.stream.Delivery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eligibility rules live twice: in {@link Eligibility} (which judges every delivery) and in the claim statement
 * (which takes the lease in the same statement that reads the facts). They must agree: over every combination of
 * status, lease, due time, run state, attempt, parameters and processing deliveries, the statement claims exactly
 * when the rules say Claim or Poison.
 */
class ClaimAgreementTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final int DELIVERY_LIMIT = 3;

    private final Jdbc jdbc = ns.database().jdbc();
    private final OperationStore store = new OperationStore(jdbc);
    private final OperationRegistry registry = new OperationRegistry(jdbc);

    private record State(OperationStatus status, String lease, String due, String run, int attemptOffset,
                         boolean otherPayload, int processing) {
    }

    @Test
    void theClaimStatementAndTheEligibilityRules_agreeOnEveryState() {
        List<State> states = new ArrayList<>();
        for (OperationStatus status : OperationStatus.values()) {
            for (String lease : status == OperationStatus.RUNNING ? List.of("live", "expired") : List.of("none")) {
                for (String due : status == OperationStatus.RETRY_SCHEDULED ? List.of("past", "future") : List.of("none")) {
                    for (String run : List.of("RUNNING", "CANCELLED")) {
                        for (int attemptOffset : List.of(-1, 0, 1)) {
                            for (boolean otherPayload : List.of(false, true)) {
                                for (int processing : List.of(0, DELIVERY_LIMIT)) {
                                    states.add(new State(status, lease, due, run, attemptOffset, otherPayload, processing));
                                }
                            }
                        }
                    }
                }
            }
        }
        List<String> disagreements = new ArrayList<>();
        int n = 0;
        for (State state : states) {
            OperationId id = new OperationId("agree-" + n, "op", 0);
            n++;
            DispatchEnvelope recorded = dispatch(id, 2, "{\"amount\":1}");
            registry.record(recorded, OperationStatus.PENDING);
            jdbc.update("UPDATE runs SET status = ? WHERE run_id = ?", state.run(), id.runId());
            jdbc.update("""
                    UPDATE operations SET status = ?, lease_owner = ?, lease_expires_at = ?, next_eligible_at = ?,
                           processing_deliveries = ?, fencing_token = 1 WHERE operation_id = ?""",
                    state.status().name(), state.lease().equals("none") ? null : "other",
                    switch (state.lease()) {
                        case "live" -> NOW.plusSeconds(30);
                        case "expired" -> NOW.minusSeconds(30);
                        default -> null;
                    },
                    switch (state.due()) {
                        case "past" -> NOW.minusSeconds(5);
                        case "future" -> NOW.plusSeconds(5);
                        default -> null;
                    }, state.processing(), id.value());

            DispatchEnvelope incoming = dispatch(id, 2 + state.attemptOffset(),
                    state.otherPayload() ? "{\"amount\":2}" : "{ \"amount\" : 1 }");
            Delivery delivery = new Delivery("ns:dispatch", "9-" + n, Map.of(), 1, "w");
            OperationFacts before = store.load(List.of(id.value())).get(id.value());
            Verdict verdict = Eligibility.conflict(incoming, before) != null ? null
                    : Eligibility.decide(incoming, before, delivery, NOW, DELIVERY_LIMIT);
            boolean rulesClaim = verdict instanceof Verdict.Claim || verdict instanceof Verdict.Poison;
            boolean statementClaimed = store.claimAndLoad(List.of(id.value()),
                    List.of(ClaimRequest.of(incoming, delivery.entryId())), "w", NOW, Duration.ofSeconds(10))
                    .leases().containsKey(id.value());
            if (rulesClaim != statementClaimed) {
                disagreements.add(state + ": rules say " + (verdict == null ? "conflict" : verdict)
                        + ", the statement " + (statementClaimed ? "claimed" : "did not claim"));
            }
        }
        assertThat(disagreements).as("%d states compared", states.size()).isEmpty();
    }

    private static DispatchEnvelope dispatch(OperationId id, int attempt, String payload) {
        return new DispatchEnvelope(id, attempt, "demo.charge", "1", id.idempotencyKey(), payload, null, null, "test",
                NOW, null, null, null, null, null);
    }
}
