package dev.redrive.console.main;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.UrlCredentials;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.store.Database;
import dev.redrive.triage.decision.DecisionAccess;

import java.time.Clock;

/**
 * One open connection of the console: the profile it came from, the operation store and the broker. Opened off the FX
 * thread; the pool and the Redis client reconnect by themselves when a server comes back.
 */
public final class ConsoleSession implements AutoCloseable {
    private static final int POOL_SIZE = 4;

    private final ConnectionProfile profile;
    private final RedriveConfig config;
    private final Database database;
    private final Redis redis;
    private final Clock clock;
    private final DecisionAccess access;

    private ConsoleSession(ConnectionProfile profile, RedriveConfig config, Database database, Redis redis, Clock clock,
                           DecisionAccess access) {
        this.profile = profile;
        this.config = config;
        this.database = database;
        this.redis = redis;
        this.clock = clock;
        this.access = access;
    }

    /** Connects to both servers and reads what the role may decide; the exception names the server that failed. */
    public static ConsoleSession open(ConnectionProfile profile, RedriveConfig config, Clock clock) {
        Database database = Database.open(config, POOL_SIZE);
        try {
            return new ConsoleSession(profile, config, database, Redis.connect(config), clock, DecisionAccess.of(database));
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    public ConnectionProfile profile() {
        return profile;
    }

    public RedriveConfig config() {
        return config;
    }

    public Database database() {
        return database;
    }

    public Redis redis() {
        return redis;
    }

    public Clock clock() {
        return clock;
    }

    /** What the role could decide when the session opened; the wizard reads it again before each decision. */
    public DecisionAccess access() {
        return access;
    }

    /**
     * For the status bar: where this session is connected and as which login (the one the audit records for every
     * decision made here), without the password, and whether it is read-only.
     */
    public String describe() {
        return profile.name() + " · namespace " + config.namespace() + " · login " + config.pgUser() + " · "
                + UrlCredentials.mask(config.pgUrl()) + " · "
                + UrlCredentials.mask(config.redisUri())
                + (access.canDecide() ? "" : " · " + access.readOnlyReason());
    }

    @Override
    public void close() {
        try {
            redis.close();
        } finally {
            database.close();
        }
    }
}
