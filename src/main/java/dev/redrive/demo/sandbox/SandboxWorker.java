package dev.redrive.demo.sandbox;

import dev.redrive.broker.Redis;
import dev.redrive.demo.tools.DemoTool;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.model.FailureClass;
import dev.redrive.store.Database;
import dev.redrive.worker.Worker;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.HttpTool;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-process worker of the sandbox: the demo tools over HTTP, short backoffs and small attempt limits so that a
 * seeded incident settles within a minute or two, and a short request timeout so that lost answers are soon seen as
 * unknown side effects.
 */
final class SandboxWorker implements AutoCloseable {
    /** Tool calls give up after this; the demo tools hold lost answers back past it (it is sent with every call). */
    static final Duration REQUEST_TIMEOUT = Duration.ofMillis(1_200);
    /** Attempts allowed for TRANSIENT, RATE_LIMITED and DEPENDENCY_DOWN failures before they are dead-lettered. */
    static final int MAX_RETRYABLE_ATTEMPTS = 4;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Worker worker;

    private SandboxWorker(Worker worker) {
        this.worker = worker;
    }

    /**
     * Starts a worker that registers every demo tool at schema version 1, except {@code demo.ship} at
     * {@code shipSchemaVersion} (the incident changes it after its operations failed).
     */
    static SandboxWorker start(Database database, Redis redis, DemoToolServer tools, String shipSchemaVersion,
                               Clock clock) {
        Worker.Builder builder = Worker.builder(database, redis)
                .consumerName("sandbox-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet())
                .concurrency(8)
                .leaseDuration(Duration.ofSeconds(10))
                .claimInterval(Duration.ofSeconds(1))
                .sweepGrace(Duration.ofSeconds(10))
                .shutdownGrace(Duration.ofSeconds(5))
                .clock(clock)
                .retryPolicy(BackoffRetryPolicy.builder()
                        .baseDelay(Duration.ofMillis(100))
                        .maxDelay(Duration.ofSeconds(1))
                        .maxAttempts(FailureClass.TRANSIENT, MAX_RETRYABLE_ATTEMPTS)
                        .maxAttempts(FailureClass.RATE_LIMITED, MAX_RETRYABLE_ATTEMPTS)
                        .maxAttempts(FailureClass.DEPENDENCY_DOWN, MAX_RETRYABLE_ATTEMPTS)
                        .maxAttempts(FailureClass.UNKNOWN_SIDE_EFFECT, 3)
                        .minimumDelay(FailureClass.DEPENDENCY_DOWN, Duration.ofMillis(300))
                        .build());
        for (DemoTool tool : DemoTool.values()) {
            String version = tool == IncidentScenario.CHANGED_TOOL ? shipSchemaVersion : IncidentScenario.ORIGINAL_SCHEMA_VERSION;
            builder.tool(HttpTool.builder(tool.toolName(), version, tools.endpoint(tool))
                    .lookupEndpoint(tools.lookupEndpoint(tool))
                    .requestTimeout(REQUEST_TIMEOUT)
                    .clock(clock)
                    .build());
        }
        return new SandboxWorker(builder.build().start());
    }

    @Override
    public void close() {
        try {
            worker.shutdown().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new SandboxException("the sandbox worker did not stop cleanly: " + e.getMessage(), e);
        }
    }
}
