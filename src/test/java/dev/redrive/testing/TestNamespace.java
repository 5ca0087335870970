package dev.redrive.testing;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.store.Database;
import dev.redrive.store.Jdbc;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Gives a test class a fresh namespace of its own on the real PostgreSQL and Redis the tests share
 * ({@link TestServers}): a migrated schema and a Redis key prefix, dropped after the class. Register it as a static field:
 * {@code @RegisterExtension static final TestNamespace ns = new TestNamespace();}
 */
public final class TestNamespace implements BeforeAllCallback, AfterAllCallback {
    private RedriveConfig config;
    private Database database;
    private Redis redis;

    @Override
    public void beforeAll(ExtensionContext context) {
        open(context.getRequiredTestClass());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    /** For a test engine other than JUnit Jupiter's (jqwik): what {@link #beforeAll} does. */
    public void open(Class<?> testClass) {
        String name = "t_" + testClass.getSimpleName().toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]", "");
        name = name.substring(0, Math.min(name.length(), 36)) + "_"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
        config = TestServers.config().withNamespace(name);
        database = Database.open(config, 16);
        database.dropSchema();
        database.migrate();
        redis = Redis.connect(config);
        redis.deleteNamespaceKeys();
    }

    /** What {@link #afterAll} does. */
    public void close() {
        if (redis != null) {
            redis.deleteNamespaceKeys();
            redis.close();
        }
        if (database != null) {
            database.dropSchema();
            database.close();
        }
    }

    public RedriveConfig config() {
        return config;
    }

    /** This namespace on another Redis (a server of the test's own), everything else as configured. */
    public RedriveConfig configWithRedis(String redisUri) {
        return new RedriveConfig(config.pgUrl(), config.pgUser(), config.pgPassword(), redisUri, config.namespace(),
                config.tls());
    }

    public Database database() {
        return database;
    }

    /** The schema owner's connection: what a test reads and writes beside the code under test. */
    public Jdbc jdbc() {
        return database.jdbc();
    }

    public Redis redis() {
        return redis;
    }

    public String name() {
        return config.namespace();
    }
}
