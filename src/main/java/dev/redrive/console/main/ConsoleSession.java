package dev.redrive.console.main;

import dev.redrive.config.RedriveConfig;
import dev.redrive.config.UrlCredentials;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.services.ToolEndpointDiscovery;
import dev.redrive.services.TriageServices;
import dev.redrive.triage.decision.DecisionAccess;

import java.time.Clock;

/**
 * One open connection of the console: the profile it came from and the {@link TriageServices} on the operation store
 * and the broker, the console's only way to them. Opened off the FX thread; the pool and the Redis client reconnect by
 * themselves when a server comes back.
 */
public final class ConsoleSession implements AutoCloseable {
    private final ConnectionProfile profile;
    private final RedriveConfig config;
    private final TriageServices services;
    private final Clock clock;
    private final DecisionAccess access;

    private ConsoleSession(ConnectionProfile profile, RedriveConfig config, TriageServices services, Clock clock,
                           DecisionAccess access) {
        this.profile = profile;
        this.config = config;
        this.services = services;
        this.clock = clock;
        this.access = access;
    }

    /** Connects to both servers and reads what the role may decide; the exception names the server that failed. */
    public static ConsoleSession open(ConnectionProfile profile, RedriveConfig config, Clock clock,
                                     ToolEndpointDiscovery discovery) {
        TriageServices services = TriageServices.open(config, clock, discovery);
        try {
            return new ConsoleSession(profile, config, services.connectBroker(), clock, services.access());
        } catch (RuntimeException e) {
            services.close();
            throw e;
        }
    }

    public ConnectionProfile profile() {
        return profile;
    }

    public RedriveConfig config() {
        return config;
    }

    public TriageServices services() {
        return services;
    }

    public Clock clock() {
        return clock;
    }

    /** What the role could decide when the session opened; the wizard reads it again before each decision. */
    public DecisionAccess access() {
        return access;
    }

    /**
     * For the status bar: whether this session is read-only, its profile and namespace and as which login (the one the
     * audit records for every decision made here). With the servers and the read-only reason it ran to some 200
     * characters, and at 1280 px the reason was cut off: those are in {@link #details()}, for its tooltip.
     */
    public String describe() {
        return (access.canDecide() ? "" : "READ-ONLY · ") + profile.name() + " · namespace " + config.namespace()
                + " · login " + config.pgUser();
    }

    /** For the status bar's tooltip: both servers, without the password, and why the session is read-only. */
    public String details() {
        return "PostgreSQL " + UrlCredentials.mask(config.pgUrl()) + "\nRedis " + UrlCredentials.mask(config.redisUri())
                + (access.canDecide() ? "" : "\n" + access.readOnlyReason());
    }

    @Override
    public void close() {
        services.close();
    }
}
