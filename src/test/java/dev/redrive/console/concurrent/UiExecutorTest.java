package dev.redrive.console.concurrent;

import dev.redrive.config.ServiceUnavailableException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

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
        UiThreadWork ui = new UiThreadWork();
        try (UiExecutor executor = UiExecutor.withCallbacksOn(ui, 2)) {
            List<String> seen = new ArrayList<>();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            UiExecutor.Job job = executor.submit("Slow read", () -> {
                started.countDown();
                release.await();
                return "late";
            }, seen::add, failure -> seen.add("failed"));
            started.await();
            job.cancel();
            release.countDown();
            assertThat(ui.backgroundWorkDone.await(10, TimeUnit.SECONDS))
                    .as("the job's end was handed to the UI thread").isTrue();
            assertThat(seen).isEmpty();
        }
    }

    /**
     * Runs UI work at once, and counts down when work that a background thread handed over has finished, nested work
     * included: after that, whatever the ended job would call back has been called.
     */
    private static final class UiThreadWork implements Executor {
        final CountDownLatch backgroundWorkDone = new CountDownLatch(1);
        private final Thread testThread = Thread.currentThread();
        private final ThreadLocal<Integer> depth = ThreadLocal.withInitial(() -> 0);

        @Override
        public void execute(Runnable work) {
            depth.set(depth.get() + 1);
            try {
                work.run();
            } finally {
                depth.set(depth.get() - 1);
                if (depth.get() == 0 && Thread.currentThread() != testThread) {
                    backgroundWorkDone.countDown();
                }
            }
        }
    }
}
