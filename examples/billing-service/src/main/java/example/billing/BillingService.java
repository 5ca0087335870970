package example.billing;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.store.Database;
import dev.redrive.worker.Worker;
import dev.redrive.worker.tool.HttpTool;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A billing service's worker: it charges through the payment provider's HTTP API, once per operation, whatever Redis
 * redelivers. Settings come from the REDRIVE_* variables (REDRIVE_PG_URL, REDRIVE_REDIS_URI, REDRIVE_NAMESPACE...);
 * the provider's address from BILLING_PROVIDER_URL (default http://127.0.0.1:8080).
 *
 * <p>The provider answers {@code POST /charges} with the charge as JSON and keeps one charge per
 * {@code Idempotency-Key}; {@code GET /charges/by-key/KEY} says whether a key's charge was made (the look-up the
 * worker asks when an answer was lost, see docs/tool-lookup.md).
 */
public final class BillingService implements AutoCloseable {
    private final Database database;
    private final Redis redis;
    private final Worker worker;

    private BillingService(Database database, Redis redis, Worker worker) {
        this.database = database;
        this.redis = redis;
        this.worker = worker;
    }

    /** Migrates the namespace (nothing happens when it is up to date) and starts consuming its dispatches. */
    public static BillingService start(RedriveConfig config, URI provider) {
        Database database = Database.open(config);
        database.migrate();
        Redis redis = Redis.connect(config);
        Worker worker = Worker.builder(database, redis)
                .tool(HttpTool.builder("billing.charge", "1", provider.resolve("/charges"))
                        .lookupEndpoint(provider.resolve("/charges/by-key/"))
                        .requestTimeout(Duration.ofSeconds(10))
                        .build())
                .concurrency(8)
                .build()
                .start();
        return new BillingService(database, redis, worker);
    }

    /** Stops taking work, lets the calls in flight finish, then closes the connections it opened. */
    @Override
    public void close() throws Exception {
        worker.shutdown().get(60, TimeUnit.SECONDS);
        redis.close();
        database.close();
    }

    public static void main(String[] args) throws Exception {
        URI provider = URI.create(System.getenv().getOrDefault("BILLING_PROVIDER_URL", "http://127.0.0.1:8080"));
        BillingService service = start(RedriveConfig.fromEnvironment(System.getenv()), provider);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                service.close();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }));
        System.out.println("billing worker running; Ctrl-C stops it");
        stopped.await();
    }
}
