package dev.redrive.demo.embedded;

import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * The sandbox's own PostgreSQL and Redis, for a machine where none is configured: started from the binaries that come
 * with the application, data under the user's data folder ({@link SandboxDirectory}), never a server that happens to
 * listen on a default port. Closing stops both; their data stays for the next start, until {@link #wipe}.
 */
public final class EmbeddedServers implements AutoCloseable {
    private final EmbeddedPostgres postgres;
    private final EmbeddedRedis redis;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedServers(EmbeddedPostgres postgres, EmbeddedRedis redis) {
        this.postgres = postgres;
        this.redis = redis;
    }

    /**
     * Starts both; a server that cannot start is one line naming it and where its log is
     * ({@link ServiceUnavailableException}).
     */
    public static EmbeddedServers start(Path dir) {
        EmbeddedPostgres postgres;
        try {
            postgres = EmbeddedPostgres.start(dir.resolve("postgres"));
        } catch (IllegalStateException | UncheckedIOException e) {
            throw new ServiceUnavailableException("the sandbox's own PostgreSQL did not start: " + e.getMessage(), e);
        }
        EmbeddedServers servers;
        try {
            servers = new EmbeddedServers(postgres, EmbeddedRedis.start(dir.resolve("redis")));
        } catch (RuntimeException e) {
            postgres.close();
            if (e instanceof IllegalStateException || e instanceof UncheckedIOException) {
                throw new ServiceUnavailableException("the sandbox's own Redis did not start: " + e.getMessage(), e);
            }
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(servers::close, "sandbox-servers-stop"));
        return servers;
    }

    /** Both servers, in {@code namespace}. */
    public RedriveConfig config(String namespace) {
        return new RedriveConfig(postgres.jdbcUrl(), RedriveConfig.DEFAULT_PG_USER, "", redis.uri(), namespace);
    }

    /** Stops both servers, once: it also runs from a shutdown hook, so that Ctrl-C leaves no server behind. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            redis.close();
        } finally {
            postgres.close();
        }
    }

    /** Deletes the sandbox's data; returns whether there was any. The servers must not be running. */
    public static boolean wipe(Path dir) {
        if (!Files.exists(dir)) {
            return false;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the sandbox's data in " + dir, e);
        }
    }
}
