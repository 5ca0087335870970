package dev.redrive.demo.sandbox;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.demo.tools.DemoToolServer;
import dev.redrive.health.DlqDepth;
import dev.redrive.store.Database;
import dev.redrive.store.tool.ToolSchemaStore;
import org.flywaydb.core.api.FlywayException;

import java.net.URI;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A namespace with a realistic incident in it and everything that makes it live: the demo tools, an in-process
 * worker (so redrives really execute) and, if asked, a trickle of new work.
 *
 * <pre>{@code
 * try (Sandbox sandbox = Sandbox.connect(config.withNamespace(Sandbox.NAMESPACE), Clock.systemUTC(), System.out::println)) {
 *     sandbox.reseed(SeedSize.FULL);       // or sandbox.resume() on a namespace seeded before
 *     sandbox.startLiveWorkload(Trickle.DEFAULT);
 *     ...
 * }
 * }</pre>
 */
public final class Sandbox implements AutoCloseable {
    /** The namespace the {@code demo} command and {@code console --demo} use unless told otherwise. */
    public static final String NAMESPACE = "redrive_demo";
    /** How many more open DLQ entries than at its start the trickle may add (see {@link LiveWorkload}). */
    private static final long LIVE_NEW_OPEN_ENTRIES = 25;

    private final RedriveConfig config;
    private final Database database;
    private final Redis redis;
    private final Clock clock;
    private final Consumer<String> log;
    private DemoToolServer tools;
    private SandboxWorker worker;
    private LiveWorkload workload;
    private boolean closed;

    private Sandbox(RedriveConfig config, Database database, Redis redis, Clock clock, Consumer<String> log) {
        this.config = config;
        this.database = database;
        this.redis = redis;
        this.clock = clock;
        this.log = log;
    }

    /** Connects to the namespace's PostgreSQL schema and Redis keys; starts nothing yet. */
    public static Sandbox connect(RedriveConfig config, Clock clock, Consumer<String> log) {
        Database database = Database.open(config, 16);
        try {
            return new Sandbox(config, database, Redis.connect(config), clock, log);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /**
     * The sandbox as the console opens it: seeded first if the namespace holds nothing yet, otherwise resumed, with
     * the demo tools, a worker and the live trickle running until it is closed.
     */
    public static Sandbox openForConsole(RedriveConfig config, Clock clock, Consumer<String> log, Trickle trickle) {
        Sandbox sandbox = connect(config, clock, log);
        try {
            if (!sandbox.isSeeded() || !sandbox.resume()) {
                log.accept(sandbox.reseed(SeedSize.FULL).describe());
            }
            sandbox.startLiveWorkload(trickle);
            return sandbox;
        } catch (RuntimeException e) {
            sandbox.close();
            throw e;
        }
    }

    /**
     * Wipes the namespace (schema and Redis keys), migrates it, and seeds the incident through the demo tools and an
     * in-process worker, waiting until the worker has settled it. The worker keeps running afterwards.
     */
    public SeedSummary reseed(SeedSize size) {
        stopLiveWorkload();
        stopWorker();
        stopTools();
        redis.deleteNamespaceKeys();
        database.dropSchema();
        database.migrate();
        log.accept("namespace " + config.namespace() + " reset; seeding the incident");
        SeededIncident incident = IncidentScenario.plan(LocalDate.now(clock.withZone(ZoneOffset.UTC)), size);
        startWorker(IncidentScenario.ORIGINAL_SCHEMA_VERSION);
        new IncidentSeeder(database, redis, clock, log).seed(incident);
        log.accept("first decisions of the triage:");
        new IncidentHistory(database, redis, tools.lookupEndpoints(), clock, log).play(incident);
        log.accept("deploying " + IncidentScenario.CHANGED_TOOL.toolName() + " schema version "
                + IncidentScenario.CHANGED_SCHEMA_VERSION + " (its failed operations were dispatched with version "
                + IncidentScenario.ORIGINAL_SCHEMA_VERSION + ")");
        stopWorker();
        startWorker(IncidentScenario.CHANGED_SCHEMA_VERSION);
        return summary();
    }

    /** Whether the namespace already holds a seeded incident. */
    public boolean isSeeded() {
        boolean migrated = database.jdbc().queryLong(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = 'operations'",
                config.namespace()) > 0;
        return migrated && database.jdbc().queryLong("SELECT count(*) FROM operations") > 0;
    }

    /**
     * Runs the demo tools and the worker on a namespace seeded before, migrating it first.
     *
     * @return false, starting nothing, when the sandbox's schema cannot be migrated to this build's (a sandbox seeded
     * by another build): re-seed it instead
     */
    public boolean resume() {
        try {
            database.migrate();
        } catch (FlywayException e) {
            log.accept("the sandbox in " + config.namespace() + " was seeded by another build ("
                    + e.getMessage().lines().findFirst().orElse("") + "); re-seeding it");
            return false;
        }
        String shipVersion = new ToolSchemaStore(database.jdbc()).current(IncidentScenario.CHANGED_TOOL.toolName())
                .orElse(IncidentScenario.CHANGED_SCHEMA_VERSION);
        if (worker == null) {
            startWorker(shipVersion);
        }
        return true;
    }

    /**
     * Starts a trickle of new work (by default a couple of operations every few seconds, a few of which fail), which
     * stops adding dead letters once the open DLQ has grown by {@value #LIVE_NEW_OPEN_ENTRIES} entries.
     */
    public void startLiveWorkload(Trickle trickle) {
        if (workload != null || trickle.off()) {
            return;
        }
        String runId = "live-" + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(clock.instant());
        LongSupplier open = () -> DlqDepth.read(database.jdbc(), clock.instant()).open();
        workload = new LiveWorkload(new IncidentDispatcher(database, redis, clock)::dispatch, runId, open,
                open.getAsLong() + LIVE_NEW_OPEN_ENTRIES, new Random());
        workload.start(trickle.interval(), trickle.perRound());
    }

    public SeedSummary summary() {
        return SeedSummary.read(database.jdbc());
    }

    public RedriveConfig config() {
        return config;
    }

    /** The reconciliation look-up endpoints of the sandbox's demo tools, by tool name (empty until they run). */
    public Map<String, URI> lookupEndpoints() {
        return tools == null ? Map.of() : tools.lookupEndpoints();
    }

    /** The same look-up endpoints as text, the way the console takes them. */
    public Map<String, String> lookupEndpointUrls() {
        Map<String, String> urls = new TreeMap<>();
        lookupEndpoints().forEach((tool, uri) -> urls.put(tool, uri.toString()));
        return urls;
    }

    /** Stops the trickle, the worker and the tools, once, whoever asks first: the command or a Ctrl-C's hook. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopLiveWorkload();
        try {
            stopWorker();
        } finally {
            stopTools();
            redis.close();
            database.close();
        }
    }

    private void startWorker(String shipSchemaVersion) {
        if (tools == null) {
            tools = DemoToolServer.start(database, clock);
        }
        worker = SandboxWorker.start(database, redis, tools, shipSchemaVersion, clock);
    }

    private void stopLiveWorkload() {
        if (workload != null) {
            workload.close();
            workload = null;
        }
    }

    private void stopTools() {
        if (tools != null) {
            tools.close();
            tools = null;
        }
    }

    private void stopWorker() {
        if (worker != null) {
            SandboxWorker stopping = worker;
            worker = null;
            stopping.close();
        }
    }
}
