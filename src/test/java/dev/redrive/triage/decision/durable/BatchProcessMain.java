package dev.redrive.triage.decision.durable;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.store.Database;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.worker.client.WorkerClient;

import java.time.Clock;
import java.time.Duration;

/**
 * Runs one durable batch in a JVM of its own, as {@code redrive --resume BATCH} would, so that a test can kill it
 * mid-way. Arguments: namespace, batch id, lease in milliseconds.
 */
public final class BatchProcessMain {
    private BatchProcessMain() {
    }

    public static void main(String[] args) {
        RedriveConfig config = RedriveConfig.fromEnvironment(System.getenv()).withNamespace(args[0]);
        Clock clock = Clock.systemUTC();
        try (Database database = Database.open(config, 2); Redis redis = Redis.connect(config)) {
            Decisions decisions = new Decisions(database, new WorkerClient(database, redis, clock), clock);
            DurableBatches batches = new DurableBatches(decisions, new JdbcDlqQueries(database), clock, Sleeper.SYSTEM,
                    Duration.ofMillis(Long.parseLong(args[2])));
            DurableBatches.BatchRun run = batches.run(Long.parseLong(args[1]), DurableBatchListener.NONE);
            System.out.println("batch ended " + run.batch().state());
        }
    }
}
