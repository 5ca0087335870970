package dev.redrive.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of a test's own, on a free port, for tests that must kill or restart Redis (never the shared one).
 * It keeps nothing on disk, so a restart comes back empty, like a cache node that lost its memory.
 */
public final class RedisServerProcess implements AutoCloseable {
    private final int port;
    private final Path dir;
    private Process process;

    private RedisServerProcess(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    public static RedisServerProcess start() {
        try {
            RedisServerProcess server = new RedisServerProcess(freePort(), Files.createTempDirectory("redrive-redis-"));
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
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
            process = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--dir", dir.toString()))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!answers()) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new IllegalStateException("redis-server on port " + port + " did not start: see " + dir);
                }
                Thread.sleep(20);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server (is it on the PATH?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private boolean answers() throws IOException, InterruptedException {
        Process ping = new ProcessBuilder("redis-cli", "-p", Integer.toString(port), "ping").redirectErrorStream(true).start();
        String answer = new String(ping.getInputStream().readAllBytes()).strip();
        return ping.waitFor() == 0 && answer.equals("PONG");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
