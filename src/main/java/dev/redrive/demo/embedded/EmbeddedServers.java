package dev.redrive.demo.embedded;

import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
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
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedServers.class);

    private final AtomicBoolean closed = new AtomicBoolean();
    /** What runs on these servers and must stop before them (the sandbox's worker and tools), newest first. */
    private final Deque<AutoCloseable> users = new ArrayDeque<>();

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

    /**
     * Has {@code user} closed before the servers stop, by whichever stops them: the shutdown hook runs at the same time
     * as the application's own, and a worker whose servers went first would spend its last seconds on timeouts.
     */
    public synchronized void stopFirst(AutoCloseable user) {
        users.push(user);
    }

    /**
     * Stops what runs on them, then both servers, once: it also runs from a shutdown hook, so that Ctrl-C leaves no
     * server behind. A second caller waits until the first is done.
     */
    @Override
    public synchronized void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            while (!users.isEmpty()) {
                try {
                    users.pop().close();
                } catch (Exception e) {
                    LOG.warn("stopping what ran on the sandbox's servers failed; stopping the servers all the same", e);
                }
            }
        } finally {
            try {
                redis.close();
            } finally {
                postgres.close();
            }
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
