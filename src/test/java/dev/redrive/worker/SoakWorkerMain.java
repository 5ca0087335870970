package dev.redrive.worker;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.demo.tools.DemoTool;
import dev.redrive.model.FailureClass;
import dev.redrive.store.Database;
import dev.redrive.worker.retry.BackoffRetryPolicy;
import dev.redrive.worker.tool.HttpTool;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A worker in a process of its own serving the three demo tools, for {@link ChaosSoakTest} to kill, pause and restart.
 * Arguments: namespace, Redis URI, the demo tools' base URL (http://127.0.0.1:PORT), consumer name. SIGTERM shuts it
 * down gracefully; SIGKILL is the crash the soak is about.
 */
public final class SoakWorkerMain {
    static final Duration LEASE = Duration.ofSeconds(2);

    private SoakWorkerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("REDRIVE_REDIS_URI", args[1]);
        RedriveConfig config = RedriveConfig.fromEnvironment(env).withNamespace(args[0]);
        Database database = Database.open(config, 6);
        Redis redis = Redis.connect(config);
        URI base = URI.create(args[2]);
        Worker.Builder builder = Worker.builder(database, redis)
                .consumerName(args[3])
                .concurrency(8)
                .leaseDuration(LEASE)
                .claimInterval(Duration.ofMillis(250))
                .sweepGrace(Duration.ofSeconds(10))
                .shutdownGrace(Duration.ofSeconds(3))
                .retryPolicy(BackoffRetryPolicy.builder().baseDelay(Duration.ofMillis(50)).maxDelay(Duration.ofMillis(500))
                        .minimumDelay(FailureClass.DEPENDENCY_DOWN, Duration.ofMillis(300)).build());
        for (DemoTool tool : DemoTool.values()) {
            builder.tool(HttpTool.builder(tool.toolName(), "1", base.resolve(tool.path()))
                    .lookupEndpoint(base.resolve(tool.lookupPrefix()))
                    .requestTimeout(Duration.ofSeconds(1))
                    .build());
        }
        Worker worker = builder.build().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> worker.shutdown().join()));
        System.out.println("worker " + args[3] + " started");
        Thread.sleep(Long.MAX_VALUE);
    }
}
