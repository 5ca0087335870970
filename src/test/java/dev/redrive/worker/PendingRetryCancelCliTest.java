package dev.redrive.worker;

import dev.redrive.cli.CliRun;
import dev.redrive.cli.ExitCode;
import dev.redrive.identity.OperationId;
import dev.redrive.model.FailureClass;
import dev.redrive.testing.TestNamespace;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code redrive discard} and {@code resolve --result} of an operation waiting for its retry: the retry is cancelled in
 * one audited transaction, and a real worker, whose retry poller promotes the scheduled dispatch when it falls due,
 * acks it without calling the tool.
 */
class PendingRetryCancelCliTest {
    /** Long enough that the CLI decides while the retry still waits, on a loaded machine too (3 s was not). */
    private static final Duration RETRY_DELAY = Duration.ofSeconds(10);

    static final TestNamespace ns = new TestNamespace();
    @RegisterExtension
    static final ChargeWorkerFixture charging = new ChargeWorkerFixture(ns, "retry-cancel-worker",
            Duration.ofMillis(1500), worker -> worker.retryPolicy(BackoffRetryPolicy.builder().baseDelay(RETRY_DELAY)
                    .maxDelay(RETRY_DELAY).minimumDelay(FailureClass.TRANSIENT, RETRY_DELAY).build()));

    @Test
    void discardOfAPendingRetry_cancelsIt_andTheWorkerNeverRunsIt() {
        OperationId id = charging.kit().dispatch("retry-discard", "charge", "{\"amount\":7,\"fault\":\"transient:1\"}").operationId();
        charging.kit().awaitStatus(id, "RETRY_SCHEDULED", Duration.ofSeconds(10));

        CliRun run = CliRun.in(ns, "discard", id.value(), "--reason", "customer cancelled", "--operator", "alice");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains(id.value() + ": DONE retry of attempt 2").contains("cancelled: operation DISCARDED by alice");
        awaitRetryDeliveredAndAcked();
        assertThat(charging.kit().status(id)).isEqualTo("DISCARDED");
        assertThat(charging.kit().callsFor(id)).as(charging.kit().describe(id)).isEqualTo(1);
        assertThat(charging.kit().jdbc().queryOne("SELECT action || ' ' || actor || ' ' || reason || ' ' || (details->'cancelled_retry'->>'attempt')"
                        + " || ' ' || (details->'cancelled_retry'->>'last_error_class') FROM audit_log WHERE operation_id = ?"
                        + " AND action = 'DISCARD'", row -> row.getString(1), id.value()))
                .contains("DISCARD alice customer cancelled 2 TRANSIENT");

        CliRun again = CliRun.in(ns, "discard", id.value(), "--reason", "customer cancelled", "--operator", "carol");
        assertThat(again.exit()).isEqualTo(ExitCode.BLOCKED);
        assertThat(again.out()).startsWith(id.value() + ": ALREADY_DECIDED by alice at ")
                .contains("(DISCARDED while it waited for its retry: customer cancelled)");
    }

    @Test
    void resolveWithAResult_cancelsThePendingRetry_andStoresTheResult() {
        OperationId id = charging.kit().dispatch("retry-resolve", "charge", "{\"amount\":7,\"fault\":\"transient:1\"}").operationId();
        charging.kit().awaitStatus(id, "RETRY_SCHEDULED", Duration.ofSeconds(10));

        CliRun run = CliRun.in(ns, "resolve", id.value(), "--reason", "charged by hand", "--operator", "bob",
                "--result", "{\"charge_id\":\"manual-1\"}");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("cancelled: operation SUCCEEDED by bob");
        awaitRetryDeliveredAndAcked();
        assertThat(charging.kit().jdbc().queryOne("SELECT status || ' ' || (result->>'charge_id') FROM operations WHERE operation_id = ?",
                row -> row.getString(1), id.value())).contains("SUCCEEDED manual-1");
        assertThat(charging.kit().callsFor(id)).isEqualTo(1);
    }

    @Test
    void resolveWithoutAResult_isBlocked_andTheRetryStillRuns() {
        OperationId id = charging.kit().dispatch("retry-no-result", "charge", "{\"amount\":7,\"fault\":\"transient:1\"}").operationId();
        charging.kit().awaitStatus(id, "RETRY_SCHEDULED", Duration.ofSeconds(10));

        CliRun run = CliRun.in(ns, "resolve", id.value(), "--reason", "looks done", "--operator", "bob");

        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.out()).contains("BLOCKED resolving needs the result");
        charging.kit().awaitStatus(id, "SUCCEEDED", Duration.ofSeconds(15));
        assertThat(charging.kit().callsFor(id)).isEqualTo(2);
    }

    /** The poller promoted every scheduled retry and the worker acked each delivery; then a moment for a late call. */
    private static void awaitRetryDeliveredAndAcked() {
        await().atMost(RETRY_DELAY.plusSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> ns.redis().sync().zcard(ns.redis().keys().retry()) == 0 && charging.kit().pendingEntries() == 0);
        await().pollDelay(Duration.ofMillis(500)).until(() -> true);
    }
}
