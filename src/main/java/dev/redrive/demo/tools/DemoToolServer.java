package dev.redrive.demo.tools;

import com.sun.net.httpserver.HttpServer;
import dev.redrive.store.Database;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo tools: stand-in remote systems with real side effects, served over HTTP on loopback. It plays the tool
 * {@code demo.charge} (and the other {@link DemoTool}s the sandbox uses): applies a call's effect once per
 * {@code Idempotency-Key}, records every call and every effect in the namespace's {@code demo_tool_calls} /
 * {@code demo_tool_effects} (tables it creates itself: {@link DemoToolSchema}), fails as the payload's {@code "fault"} asks (see {@link FaultPlan}), and answers
 * reconciliation look-ups by idempotency key. A lost answer ({@code timeout_after_apply}, {@code timeout_before_apply})
 * is held back a second longer than the request timeout the client announces in {@code Request-Timeout-Ms} (Redrive's
 * HttpTool always does), so the client gives up first whatever its timeout; a client that does not say waits
 * {@link #stallAnswers(Duration) the stall}.
 *
 * <pre>{@code
 * try (DemoToolServer tools = DemoToolServer.start(database)) {
 *     URI charge = tools.chargeEndpoint();           // POST here
 *     URI lookup = tools.lookupEndpoint();           // GET lookup + idempotencyKey
 * }
 * }</pre>
 */
public final class DemoToolServer implements AutoCloseable {
    /**
     * How long a lost answer is held back from a client without {@code Request-Timeout-Ms}, unless
     * {@link #stallAnswers(Duration)} says otherwise.
     */
    public static final Duration DEFAULT_STALL = Duration.ofSeconds(5);
    private static final int MAX_THREADS = 128;

    private final HttpServer server;
    private final ExecutorService executor;
    private final DemoToolLedger ledger;
    private final Clock clock;
    private volatile Duration stall = DEFAULT_STALL;
    private long serverId;

    private DemoToolServer(HttpServer server, ExecutorService executor, DemoToolLedger ledger, Clock clock) {
        this.server = server;
        this.executor = executor;
        this.ledger = ledger;
        this.clock = clock;
    }

    /**
     * Starts the service on 127.0.0.1 on a free port, recording into the database's namespace, whose demo tables it
     * creates first if they are not there yet ({@link DemoToolSchema}).
     */
    public static DemoToolServer start(Database database) {
        return start(database, Clock.systemUTC());
    }

    /** As {@link #start(Database)}, with the clock that stamps calls and effects. */
    public static DemoToolServer start(Database database, Clock clock) {
        return start(database, clock, EffectPolicy.ONCE_PER_KEY);
    }

    /**
     * As {@link #start(Database, Clock)}, applying effects as {@code policy} says: {@link EffectPolicy#EVERY_CALL} plays
     * a remote system that ignores the idempotency key, so that a second call for a key shows as a second effect.
     */
    public static DemoToolServer start(Database database, Clock clock, EffectPolicy policy) {
        DemoToolSchema.migrate(database);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the demo tool service on loopback: " + e.getMessage(), e);
        }
        ExecutorService executor = newExecutor();
        DemoToolLedger ledger = new DemoToolLedger(database.jdbc());
        DemoToolServer tools = new DemoToolServer(server, executor, ledger, clock);
        for (DemoTool tool : DemoTool.values()) {
            ToolDesk desk = new ToolDesk(tool, ledger, clock, policy);
            server.createContext(tool.path(), new CallHandler(tool, desk, clock, tools::stallDuration));
            server.createContext(tool.lookupPrefix(), new EffectLookupHandler(tool, desk));
        }
        server.setExecutor(executor);
        server.start();
        tools.serverId = ledger.recordServerStarted(tools.base().toString(), ProcessHandle.current().pid(), clock.instant());
        return tools;
    }

    /**
     * The reconciliation look-up endpoints of the demo tools serving this namespace, by tool name, as the most
     * recently started service that has not stopped recorded them; empty when none runs. For a console or CLI in
     * another process than the one running the service.
     */
    public static Map<String, URI> lookupEndpoints(Database database) {
        if (!DemoToolSchema.exists(database)) {
            return Map.of();
        }
        return new DemoToolLedger(database.jdbc()).latestRunningServer()
                .map(URI::create)
                .map(base -> {
                    Map<String, URI> endpoints = new LinkedHashMap<>();
                    for (DemoTool tool : DemoTool.values()) {
                        endpoints.put(tool.toolName(), base.resolve(tool.lookupPrefix()));
                    }
                    return Map.copyOf(endpoints);
                })
                .orElse(Map.of());
    }

    /** This service's look-up endpoints by tool name, e.g. for a triage side-effect look-up. */
    public Map<String, URI> lookupEndpoints() {
        Map<String, URI> endpoints = new LinkedHashMap<>();
        for (DemoTool tool : DemoTool.values()) {
            endpoints.put(tool.toolName(), lookupEndpoint(tool));
        }
        return Map.copyOf(endpoints);
    }

    /**
     * Sets how long a lost answer ({@code timeout_after_apply}, {@code timeout_before_apply}) is held back from a client
     * that does not announce its request timeout in {@code Request-Timeout-Ms}.
     */
    public DemoToolServer stallAnswers(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("the stall must not be negative, got " + duration);
        }
        this.stall = duration;
        return this;
    }

    public Duration stallDuration() {
        return stall;
    }

    /** {@code http://127.0.0.1:PORT/tools/demo.charge}: POST a charge here. */
    public URI chargeEndpoint() {
        return endpoint(DemoTool.CHARGE);
    }

    /** {@code http://127.0.0.1:PORT/tools/demo.charge/effects/}: append the idempotency key and GET it. */
    public URI lookupEndpoint() {
        return lookupEndpoint(DemoTool.CHARGE);
    }

    /** {@code http://127.0.0.1:PORT/tools/{tool}}: POST a call of that tool here. */
    public URI endpoint(DemoTool tool) {
        return base().resolve(tool.path());
    }

    /** {@code http://127.0.0.1:PORT/tools/{tool}/effects/}: append the idempotency key and GET it. */
    public URI lookupEndpoint(DemoTool tool) {
        return base().resolve(tool.lookupPrefix());
    }

    /** Stops answering; held answers are dropped at once (their threads are interrupted). */
    @Override
    public void close() {
        try {
            ledger.recordServerStopped(serverId, clock.instant());
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(DemoToolServer.class).warn("could not record that the demo tools stopped: {}", e.getMessage());
        }
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Stalled answers sleep on their thread, so the pool grows with them instead of queueing fresh calls. */
    private static ExecutorService newExecutor() {
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(4, MAX_THREADS, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, "demo-tools-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
        return executor;
    }
}
