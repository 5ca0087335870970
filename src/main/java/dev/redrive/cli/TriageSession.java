package dev.redrive.cli;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.report.RedactedDlqQueries;
import dev.redrive.report.Redactor;
import dev.redrive.store.Database;
import dev.redrive.triage.correction.Corrections;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.DurableBatches;
import dev.redrive.triage.decision.HttpSideEffectLookup;
import dev.redrive.triage.decision.SideEffectLookup;
import dev.redrive.triage.decision.Sleeper;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.request.DecisionRequests;
import dev.redrive.worker.client.WorkerClient;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What the triage commands share: the operation store, and Redis only for the commands that publish. Closes what it
 * opened.
 */
final class TriageSession implements AutoCloseable {
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(5);

    private final RedriveConfig config;
    private final Database database;
    private final Clock clock = Clock.systemUTC();
    private Redis redis;

    TriageSession(ConnectionOptions connection) {
        this.config = connection.config();
        this.database = Database.open(config, 4);
    }

    Database database() {
        return database;
    }

    Clock clock() {
        return clock;
    }

    /** The DLQ as the commands print it: error messages masked as free text (filters see the text the login reads). */
    DlqQueries dlqQueries() {
        return new RedactedDlqQueries(new JdbcDlqQueries(database), Redactor.defaults());
    }

    /** Decisions that publish redrives through the worker client; Redis is connected on first use. */
    Decisions decisions() {
        return new Decisions(database, DispatchPublisher.of(this::workerClient), clock);
    }

    /** Durable batches over the decisions above, paced in real time. */
    DurableBatches batches() {
        return new DurableBatches(decisions(), new JdbcDlqQueries(database), clock, Sleeper.SYSTEM);
    }

    /** Corrections that publish through the worker client, masking secrets in their diffs by the default rules. */
    Corrections corrections() {
        return new Corrections(database, envelope -> workerClient().publish(envelope), Redactor.defaults(), clock);
    }

    /**
     * The tools' look-ups by idempotency key: those of the demo tools serving this namespace, if any run, and those
     * REDRIVE_LOOKUP_ENDPOINTS names ({@code tool=url, ...}), which win. What verifies a redrive by the tool's own count.
     */
    SideEffectLookup sideEffectLookup() {
        Map<String, URI> endpoints = new HashMap<>(DemoToolServer.lookupEndpoints(database));
        ConnectionProfile.parseLookupEndpoints(System.getenv("REDRIVE_LOOKUP_ENDPOINTS"))
                .forEach((tool, url) -> endpoints.put(tool, URI.create(url)));
        return new HttpSideEffectLookup(endpoints, LOOKUP_TIMEOUT);
    }

    /** Four-eyes requests whose approved decisions publish through the worker client. */
    DecisionRequests requests() {
        return new DecisionRequests(database, DispatchPublisher.of(this::workerClient), Redactor.defaults(), clock,
                Sleeper.SYSTEM);
    }

    private WorkerClient workerClient() {
        if (redis == null) {
            redis = Redis.connect(config);
        }
        return new WorkerClient(database, redis, clock);
    }

    /** The operator's name: the given one, else the OS user. */
    static String operator(String given) {
        return given != null && !given.isBlank() ? given.strip() : System.getProperty("user.name", "operator");
    }

    @Override
    public void close() {
        if (redis != null) {
            redis.close();
        }
        database.close();
    }
}
