package dev.redrive.worker;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.store.Database;
import dev.redrive.worker.tool.HttpTool;

import java.net.URI;
import java.time.Duration;

/**
 * A worker in a process of its own, for {@link KilledWorkerTest} to SIGKILL in the middle of a tool call.
 * Arguments: namespace, charge endpoint, look-up endpoint.
 */
public final class DoomedWorkerMain {
    private DoomedWorkerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        RedriveConfig config = RedriveConfig.fromEnvironment(System.getenv()).withNamespace(args[0]);
        Database database = Database.open(config, 4);
        Redis redis = Redis.connect(config);
        Worker.builder(database, redis)
                .tool(HttpTool.builder("demo.charge", "1", URI.create(args[1]))
                        .lookupEndpoint(URI.create(args[2]))
                        .requestTimeout(Duration.ofSeconds(60))
                        .build())
                .consumerName("doomed-worker")
                .leaseDuration(WorkerTestKit.LEASE)
                .build()
                .start();
        System.out.println("worker started");
        Thread.sleep(Long.MAX_VALUE);
    }
}
