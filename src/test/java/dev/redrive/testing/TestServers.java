package dev.redrive.testing;

import dev.redrive.config.RedriveConfig;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The PostgreSQL and Redis every test of this JVM shares: those {@code REDRIVE_TEST_PG_URL} (with
 * {@code REDRIVE_TEST_PG_USER}, {@code REDRIVE_TEST_PG_PASSWORD}) and {@code REDRIVE_TEST_REDIS_URI} name, or else
 * servers of the JVM's own, started on free ports at first use from the binaries the test dependencies bring and
 * stopped when the JVM exits. So a machine with a JDK and Maven runs every test, and a server that happens to listen on
 * a default port is never written to. Each test class still works in a namespace of its own ({@link TestNamespace}).
 */
public final class TestServers {
    private static RedriveConfig config;

    private TestServers() {
    }

    /** The shared servers, namespace {@code redrive} (a test class takes one of its own). */
    public static synchronized RedriveConfig config() {
        if (config == null) {
            config = new RedriveConfig(postgresUrl(), env("REDRIVE_TEST_PG_USER", RedriveConfig.DEFAULT_PG_USER),
                    env("REDRIVE_TEST_PG_PASSWORD", ""), redisUri(), RedriveConfig.DEFAULT_NAMESPACE);
        }
        return config;
    }

    /** The REDRIVE_* variables of the shared servers, for a process a test starts (a worker, the CLI). */
    public static Map<String, String> environment() {
        RedriveConfig shared = config();
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("REDRIVE_PG_URL", shared.pgUrl());
        environment.put("REDRIVE_PG_USER", shared.pgUser());
        environment.put("REDRIVE_PG_PASSWORD", shared.pgPassword());
        environment.put("REDRIVE_REDIS_URI", shared.redisUri());
        return environment;
    }

    /** {@code process} with the REDRIVE_* variables of the shared servers: a worker or the CLI a test starts. */
    public static ProcessBuilder pointedAtThem(ProcessBuilder process) {
        process.environment().putAll(environment());
        return process;
    }

    private static String postgresUrl() {
        String named = System.getenv("REDRIVE_TEST_PG_URL");
        if (named != null && !named.isBlank()) {
            return named;
        }
        PostgresServerProcess server = PostgresServerProcess.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "test-postgres-stop"));
        return server.jdbcUrl();
    }

    private static String redisUri() {
        String named = System.getenv("REDRIVE_TEST_REDIS_URI");
        if (named != null && !named.isBlank()) {
            return named;
        }
        RedisServerProcess server = RedisServerProcess.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-redis-stop"));
        return server.uri();
    }

    private static String env(String name, String otherwise) {
        String value = System.getenv(name);
        return value == null ? otherwise : value;
    }
}
