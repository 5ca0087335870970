package dev.redrive.demo.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sandbox's own redis-server on a free port of 127.0.0.1, keeping its data in {@code dir} (an append-only file),
 * so that the sandbox's streams and retry set survive to the next start. It is this process's child and stops with it.
 */
public final class EmbeddedRedis implements AutoCloseable {
    private final Process process;
    private final int port;

    private EmbeddedRedis(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static EmbeddedRedis start(Path dir) {
        int port = EmbeddedPostgres.FreePorts.any();
        try {
            Files.createDirectories(dir);
            Process process = new ProcessBuilder(List.of(EmbeddedBinaries.redisServer().toString(), "--port",
                    Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString(), "--appendonly", "yes",
                    "--save", ""))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!RedisPing.answers(port, false)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException("redis-server did not start: see " + dir.resolve("redis.log"));
                }
                Thread.sleep(20);
            }
            return new EmbeddedRedis(process, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server in " + dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** SIGTERM: redis-server flushes its append-only file and exits. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

}
