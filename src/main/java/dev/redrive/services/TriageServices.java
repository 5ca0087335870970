package dev.redrive.services;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.health.DlqEventTail;
import dev.redrive.health.QueueHealthReader;
import dev.redrive.report.RedactedDlqQueries;
import dev.redrive.report.ReportService;
import dev.redrive.store.Database;
import dev.redrive.triage.correction.Corrections;
import dev.redrive.triage.decision.DecisionAccess;
import dev.redrive.triage.decision.Decisions;
import dev.redrive.triage.decision.DispatchPublisher;
import dev.redrive.triage.decision.batch.BatchDecisions;
import dev.redrive.triage.decision.batch.Sleeper;
import dev.redrive.triage.decision.durable.BatchOutcomes;
import dev.redrive.triage.decision.durable.DurableBatches;
import dev.redrive.triage.decision.lookup.HttpSideEffectLookup;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.decision.verify.RedriveVerifier;
import dev.redrive.triage.detail.EntryDetailsLoader;
import dev.redrive.triage.detail.OperationDetailsLoader;
import dev.redrive.triage.query.DlqQueries;
import dev.redrive.triage.query.JdbcDlqQueries;
import dev.redrive.triage.redaction.Redactor;
import dev.redrive.triage.request.DecisionRequests;
import dev.redrive.worker.client.WorkerClient;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The one place that opens the triage services of a namespace, used by the console's session and the CLI's triage
 * commands alike: the operation store's pool, Redis (connected when first needed, so that commands that only read
 * never reach for it), and every service built on them. The console reaches the store and the broker only through
 * here (LayeringTest). Closing it closes what it opened.
 */
public final class TriageServices implements AutoCloseable {
    // A durable batch may hold four connections at once (its two chunks in flight, its progress, its lease), and a
    // console can run two batches while it goes on reading (lists, health, details).
    private static final int POOL_SIZE = 10;
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(5);

    private final RedriveConfig config;
    private final Database database;
    private final Clock clock;
    private final boolean owned;
    private Redis redis;
    private final ToolEndpointDiscovery discovery;

    private TriageServices(RedriveConfig config, Database database, Redis redis, Clock clock, boolean owned,
                           ToolEndpointDiscovery discovery) {
        this.config = config;
        this.database = database;
        this.redis = redis;
        this.clock = clock;
        this.owned = owned;
        this.discovery = discovery;
    }

    /** Opens a pool on the namespace's schema; Redis waits until a service needs it. */
    public static TriageServices open(RedriveConfig config, Clock clock) {
        return open(config, clock, ToolEndpointDiscovery.NONE);
    }

    /** As {@link #open(RedriveConfig, Clock)}, asking {@code discovery} too for tools' look-up endpoints. */
    public static TriageServices open(RedriveConfig config, Clock clock, ToolEndpointDiscovery discovery) {
        return new TriageServices(config, Database.open(config, POOL_SIZE), null, clock, true, discovery);
    }

    /** The services on connections opened elsewhere (tests, the sandbox), which closing this leaves open. */
    public static TriageServices over(Database database, Redis redis, Clock clock) {
        return new TriageServices(null, database, redis, clock, false, ToolEndpointDiscovery.NONE);
    }

    /**
     * Connects Redis now rather than on first use: the console tails the DLQ from the start, and a server that is not
     * there is named when the session opens.
     */
    public TriageServices connectBroker() {
        broker();
        return this;
    }

    /** For what has no service of its own here (migrating, generating test data). */
    public Database database() {
        return database;
    }

    public Clock clock() {
        return clock;
    }

    /** What the connected login may decide, read now. */
    public DecisionAccess access() {
        return DecisionAccess.of(database);
    }

    /** The DLQ as stored (masked only where the login reads masked views). */
    public DlqQueries dlqQueries() {
        return new JdbcDlqQueries(database);
    }

    /** The DLQ as screens and commands show it: payloads and free text masked by {@code redactor}. */
    public DlqQueries dlqQueries(Redactor redactor) {
        return new RedactedDlqQueries(dlqQueries(), redactor);
    }

    public OperationDetailsLoader operationDetails() {
        return new OperationDetailsLoader(database);
    }

    public EntryDetailsLoader entryDetails() {
        return new EntryDetailsLoader(database);
    }

    /** Decisions that publish redrives through the worker client. */
    public Decisions decisions() {
        return new Decisions(database, DispatchPublisher.of(this::workerClient), clock);
    }

    /** Batch decisions of up to {@value BatchDecisions#MAX_ITEMS} items over {@link #decisions()}, a chunk at a time. */
    public BatchDecisions batchDecisions() {
        return new BatchDecisions(decisions(), dlqQueries(), clock, Sleeper.SYSTEM);
    }

    /** Durable batches over {@link #decisions()}, paced in real time. */
    public DurableBatches batches() {
        return new DurableBatches(decisions(), dlqQueries(), clock, Sleeper.SYSTEM);
    }

    /** What became of each item of a durable batch, read from the facts (as {@code redrive batch show} reads it). */
    public BatchOutcomes batchOutcomes() {
        return new BatchOutcomes(database);
    }

    /** Corrections that publish through the worker client, masking secrets in their diffs by {@code redactor}. */
    public Corrections corrections(Redactor redactor) {
        return new Corrections(database, envelope -> workerClient().publish(envelope), redactor, clock);
    }

    /** Four-eyes requests whose approved decisions publish through the worker client. */
    public DecisionRequests requests(Redactor redactor) {
        return new DecisionRequests(database, DispatchPublisher.of(this::workerClient), redactor, clock, Sleeper.SYSTEM);
    }

    /**
     * The tools' look-ups by idempotency key (reconciliation, and the verification of a redrive), by tool name: those
     * {@code configured} (a console profile's, REDRIVE_LOOKUP_ENDPOINTS), and for the other tools those the discovery
     * this was opened with finds (the demo tools serving this namespace, when the command line wires it). The console
     * and the CLI both ask through here, so the wizard verifies a redrive as {@code op show} does; the discovery runs
     * at each look-up, since tools may start or stop while a console session stays open.
     */
    public SideEffectLookup toolLookups(Map<String, URI> configured) {
        Map<String, URI> given = Map.copyOf(configured);
        return new HttpSideEffectLookup(() -> {
            Map<String, URI> endpoints = new HashMap<>(discovery.endpoints(database));
            endpoints.putAll(given);
            return endpoints;
        }, LOOKUP_TIMEOUT);
    }

    /** The one verification of a redrive, asking {@code tools} to count the effects. */
    public RedriveVerifier verifier(SideEffectLookup tools) {
        return new RedriveVerifier(database, tools);
    }

    public ReportService reports(Redactor redactor, SideEffectLookup tools) {
        return new ReportService(database, clock, redactor, tools);
    }

    public QueueHealthReader queueHealth() {
        return new QueueHealthReader(database, broker(), clock);
    }

    /** New entries of the {@code {ns}:dlq} stream, for live views. */
    public DlqEventTail dlqTail() {
        return new DlqEventTail(broker());
    }

    private WorkerClient workerClient() {
        return new WorkerClient(database, broker(), clock);
    }

    private synchronized Redis broker() {
        if (redis == null) {
            redis = Redis.connect(config);
        }
        return redis;
    }

    @Override
    public synchronized void close() {
        if (!owned) {
            return;
        }
        try {
            if (redis != null) {
                redis.close();
            }
        } finally {
            database.close();
        }
    }
}
