package dev.redrive.cli;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Redis connecting on a thread of its own while the command does something else first (reads a file), so that a cold
 * process does not wait for one and then the other. Its failure comes first, as when it connected before anything
 * else: an operator whose Redis is down hears that, not what the file said.
 */
final class RedisConnecting implements AutoCloseable {
    private final CompletableFuture<Redis> connecting;

    RedisConnecting(RedriveConfig config) {
        connecting = CompletableFuture.supplyAsync(() -> Redis.connect(config),
                task -> new Thread(task, "redis-connect").start());
    }

    /** The connection, once connected; the connect's own exception when it failed. */
    Redis connected() {
        try {
            return connecting.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw e;
        }
    }

    /** Closes the connection if there is one; a failed connect has nothing to close and has been heard already. */
    @Override
    public void close() {
        connecting.thenAccept(Redis::close).exceptionally(failure -> null).join();
    }
}
