package dev.redrive.testing;

import dev.redrive.demo.embedded.EmbeddedBinaries;
import dev.redrive.demo.embedded.RedisPing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server on a free port: the one {@link TestServers} shares with every test of a JVM when no server is named,
 * and one of a test's own for tests that must kill or restart Redis. It keeps nothing on disk, so a restart comes back
 * empty, like a cache node that lost its memory. The binary is REDRIVE_REDIS_SERVER's, or else the one the test
 * dependencies bring ({@link EmbeddedBinaries}).
 */
public final class RedisServerProcess implements AutoCloseable {
    static final String BINARY = System.getenv("REDRIVE_REDIS_SERVER") != null ? System.getenv("REDRIVE_REDIS_SERVER")
            : EmbeddedBinaries.redisServer().toString();

    private final int port;
    private final Path dir;
    private final TestCertificates certificates;
    private Process process;

    private RedisServerProcess(int port, Path dir, TestCertificates certificates) {
        this.port = port;
        this.dir = dir;
        this.certificates = certificates;
    }

    public static RedisServerProcess start() {
        return start(null);
    }

    /** A server that speaks TLS only (its plain port is off), with the server certificate of {@code certificates}. */
    public static RedisServerProcess startWithTls(TestCertificates certificates) {
        return start(certificates);
    }

    private static RedisServerProcess start(TestCertificates certificates) {
        try {
            RedisServerProcess server = new RedisServerProcess(FreePort.next(), Files.createTempDirectory("redrive-redis-"),
                    certificates);
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String uri() {
        return (certificates == null ? "redis://" : "rediss://") + "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** Kills the server (SIGKILL, as a crash) and starts it again on the same port, empty. */
    public void restartEmpty(Duration down) throws InterruptedException {
        kill();
        Thread.sleep(down.toMillis());
        launch();
    }

    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private void launch() {
        try {
            List<String> command = new ArrayList<>(List.of(BINARY, "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no", "--dir", dir.toString()));
            if (certificates == null) {
                command.addAll(List.of("--port", Integer.toString(port)));
            } else {
                command.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port),
                        "--tls-cert-file", certificates.serverCertificate().toString(),
                        "--tls-key-file", certificates.serverKey().toString(),
                        "--tls-ca-cert-file", certificates.ca().toString(), "--tls-auth-clients", "no"));
            }
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!answers()) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new IllegalStateException("redis-server on port " + port + " did not start: see " + dir);
                }
                Thread.sleep(20);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + BINARY, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private boolean answers() {
        return RedisPing.answers(port, certificates != null);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
