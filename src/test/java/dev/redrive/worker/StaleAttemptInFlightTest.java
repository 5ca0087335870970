package dev.redrive.worker;

import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.testing.HeldTool;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.HttpTool;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker whose attempt is still in flight after its lease was taken over must not discard the retry that the
 * takeover scheduled: an operation in RETRY_SCHEDULED keeps its dispatch in the retry set, the stream or in flight.
 */
class StaleAttemptInFlightTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @Test
    void retryArrivesWhileTheTakenOverAttemptIsStillInFlight_staysPendingAndSucceeds() throws Exception {
        try (WorkerTestKit kit = new WorkerTestKit(ns)) {
            HttpTool charge = kit.charge(Duration.ofSeconds(2));
            HeldTool held = HeldTool.before(charge).firstCallOnly();
            // The slow worker stops renewing its lease, as a paused process would, so the lease lapses mid-call.
            Worker slow = kit.start(kit.worker("slow-worker", held)
                    .claimInterval(Duration.ofSeconds(3)).leaseRenewalInterval(Duration.ofHours(1)));
            OperationId id = kit.dispatch("stale", "charge", "{\"amount\":9,\"fault\":\"transient:1\"}").operationId();
            assertThat(held.awaitEntered(Duration.ofSeconds(10))).as("the slow worker's first call started").isTrue();

            // Another worker takes the expired lease over, fails attempt 1 and schedules attempt 2; it stops before
            // the retry is due, so the retry reaches the worker whose first call is still running.
            Worker quick = kit.start(kit.worker("quick-worker", charge).retryPolicy(BackoffRetryPolicy.builder()
                    .minimumDelay(FailureClass.TRANSIENT, Duration.ofSeconds(3)).build()));
            kit.awaitStatus(id, "RETRY_SCHEDULED", Duration.ofSeconds(15));
            quick.shutdown().get(10, TimeUnit.SECONDS);
            String retryEntry = await().atMost(Duration.ofSeconds(10)).until(() -> retryEntry(id), entry -> entry != null);
            await().atMost(Duration.ofSeconds(10)).until(() -> delivered(kit, id, retryEntry));

            held.release();

            kit.awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(20));
            assertThat(kit.effectsFor(id)).isEqualTo(1);
            assertThat(discardsOfAttempt2(kit, id)).as("the retry was not discarded").isZero();
            assertThat(slow.state()).isEqualTo(WorkerState.RUNNING);
        }
    }

    /** The stream entry that carries attempt 2 of the operation, once the retry set has promoted it. */
    private static String retryEntry(OperationId id) {
        return ns.redis().sync().xrange(ns.redis().keys().dispatch(), Range.create("-", "+")).stream()
                .filter(message -> id.value().equals(message.getBody().get("operation_id"))
                        && "2".equals(message.getBody().get("attempt")))
                .map(message -> message.getId()).findFirst().orElse(null);
    }

    /** Whether a consumer has read the entry: it is pending, or it was acked as discarded. */
    private static boolean delivered(WorkerTestKit kit, OperationId id, String entryId) {
        return !ns.redis().sync().xpending(ns.redis().keys().dispatch(), "workers", Range.create(entryId, entryId),
                Limit.from(1)).isEmpty() || discardsOfAttempt2(kit, id) > 0;
    }

    private static long discardsOfAttempt2(WorkerTestKit kit, OperationId id) {
        return kit.count("SELECT count(*) FROM audit_log WHERE operation_id = ? AND details->>'attempt' = '2'", id.value());
    }
}
