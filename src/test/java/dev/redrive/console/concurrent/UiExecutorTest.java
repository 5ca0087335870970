package dev.redrive.console.concurrent;

import dev.redrive.config.ServiceUnavailableException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class UiExecutorTest {
    @Test
    void inlineExecutorHandsTheResultToTheCallback() {
        UiExecutor executor = UiExecutor.inline();
        List<String> seen = new ArrayList<>();

        executor.submit("Adding", () -> 1 + 1, result -> seen.add("got " + result));

        assertThat(seen).containsExactly("got 2");
        assertThat(executor.runningProperty().get()).isZero();
    }

    @Test
    void aFailureNamesWhatFailedAndTheRootCause() {
        UiExecutor executor = UiExecutor.inline();
        List<String> failures = new ArrayList<>();
        executor.onFailure(failure -> failures.add(failure.message()));

        executor.submit("Loading DLQ page", () -> {
            throw new ServiceUnavailableException("PostgreSQL at jdbc:postgresql://db:5432/x is not reachable",
                    new java.net.ConnectException("Connection refused"));
        }, result -> failures.add("unexpected success"));

        assertThat(failures).containsExactly(
                "Loading DLQ page failed: PostgreSQL at jdbc:postgresql://db:5432/x is not reachable (Connection refused)");
    }

    @Test
    void aFailureQuotingAConnectionUrl_neverShowsItsPassword() {
        UiExecutor.TaskFailure failure = new UiExecutor.TaskFailure("Connecting to prod",
                new IllegalStateException("driver refused jdbc:postgresql://db/x?password=hunter2",
                        new IllegalArgumentException("bad seed redis://:hunter2@h1:7001,h2:7002")));

        assertThat(failure.message()).isEqualTo("Connecting to prod failed: driver refused "
                + "jdbc:postgresql://db/x?password=*** (bad seed redis://:***@h1:7001,h2:7002)");
    }

    @Test
    void aCancelledJobNeverCallsBack() throws Exception {
        try (UiExecutor executor = poolWithDirectCallbacks()) {
            List<String> seen = new ArrayList<>();
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            UiExecutor.Job job = executor.submit("Slow read", () -> {
                started.countDown();
                release.await();
                return "late";
            }, seen::add, failure -> seen.add("failed"));
            started.await();
            job.cancel();
            release.countDown();
            Thread.sleep(100);
            assertThat(seen).isEmpty();
        }
    }

    private static UiExecutor poolWithDirectCallbacks() {
        return UiExecutor.withCallbacksOn(Runnable::run, 2);
    }
}
