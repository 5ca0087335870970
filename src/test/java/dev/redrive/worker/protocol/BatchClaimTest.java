package dev.redrive.worker.protocol;

import dev.redrive.envelope.DispatchEnvelope;
import dev.redrive.identity.OperationId;
import dev.redrive.model.OperationStatus;
import dev.redrive.store.operation.OperationRegistry;
import dev.redrive.store.operation.OperationStore;
import dev.redrive.store.deadletter.MessageDeadLetter;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.stream.Delivery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

/**
 * The claim phase when PostgreSQL refuses a value the envelope checks let through (here built by hand, past the
 * codec): the statement is retried operation by operation, the refused operation's deliveries are dead-lettered alone,
 * and the rest of the batch is claimed as if nothing happened.
 */
class BatchClaimTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final String UNSTORABLE = "{\"note\":\"\\u0000\"}";

    private final OperationStore store = new OperationStore(ns.database().jdbc());
    private final OperationRegistry registry = new OperationRegistry(ns.database().jdbc());
    private final BatchClaim claim = new BatchClaim(store, registry, "w1", Duration.ofSeconds(30));

    private static Incoming incoming(OperationId id, String payload, String entryId) {
        DispatchEnvelope envelope = new DispatchEnvelope(id, 1, "demo.charge", "1", id.idempotencyKey(), payload, null,
                null, "test", NOW, null, null, null, null, null);
        return new Incoming(new Delivery("ns:dispatch", entryId, Map.of("operation_id", id.value()), 1, "w1"), envelope);
    }

    @Test
    void aFirstSightingTheStoreRefuses_isDeadLetteredAlone_andTheOthersAreRecordedAndClaimed() {
        Incoming known = incoming(new OperationId("iso", "known", 0), "{\"amount\":1}", "1-0");
        registry.record(known.envelope(), OperationStatus.PENDING);
        Incoming poison = incoming(new OperationId("iso", "poison", 0), UNSTORABLE, "2-0");
        Incoming fresh = incoming(new OperationId("iso", "fresh", 0), "{\"amount\":2}", "3-0");
        List<Incoming> batch = List.of(known, poison, fresh);
        BatchOutcome outcome = new BatchOutcome(NOW);

        BatchClaim.Result result = claim.claim(batch, batch, outcome, NOW);

        assertThat(result.leases()).containsOnlyKeys(known.operationId(), fresh.operationId());
        assertThat(result.refused()).containsExactly(poison.operationId());
        assertThat(outcome.deadLetters).extracting(MessageDeadLetter::entryId, MessageDeadLetter::errorCode)
                .containsExactly(tuple("2-0", "unstorable_payload"));
        assertThat(outcome.deadLetters.get(0).errorMessage()).contains("SQLSTATE 22");
        assertThat(ns.database().jdbc().queryLong("SELECT count(*) FROM operations WHERE operation_id = ?",
                poison.operationId())).isZero();
    }

    @Test
    void aClaimStatementTheStoreRefuses_isRetriedOperationByOperation() {
        Incoming good = incoming(new OperationId("split", "good", 0), "{\"amount\":1}", "1-0");
        Incoming other = incoming(new OperationId("split", "other", 0), "{\"amount\":2}", "2-0");
        registry.record(good.envelope(), OperationStatus.PENDING);
        registry.record(other.envelope(), OperationStatus.PENDING);
        // A delivery of a known operation whose payload cannot even be cast to jsonb fails the batch's claim statement.
        Incoming poisoned = incoming(new OperationId("split", "other", 0), UNSTORABLE, "3-0");
        BatchOutcome outcome = new BatchOutcome(NOW);

        BatchClaim.Result result = claim.claim(List.of(good, poisoned), List.of(good, poisoned), outcome, NOW);

        assertThat(result.leases()).containsOnlyKeys(good.operationId());
        assertThat(result.refused()).containsExactly(other.operationId());
        assertThat(outcome.deadLetters).extracting(MessageDeadLetter::entryId).containsExactly("3-0");
        assertThat(ns.database().jdbc().queryOne("SELECT status || '/' || fencing_token FROM operations WHERE operation_id = ?",
                row -> row.getString(1), other.operationId())).as("the stored operation is untouched").contains("PENDING/0");
    }
}
