package dev.redrive.broker;

import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.config.UrlCredentials;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

import java.time.Duration;

/** One Redis client and a shared connection for a namespace. Blocking reads should open their own connection. */
public final class Redis implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final StreamKeys keys;
    private final String uri;

    private Redis(RedisClient client, StatefulRedisConnection<String, String> connection, StreamKeys keys, String uri) {
        this.client = client;
        this.connection = connection;
        this.keys = keys;
        this.uri = uri;
    }

    public static Redis connect(RedriveConfig config) {
        RedisURI redisUri = RedisURI.create(config.redisUri());
        redisUri.setTimeout(Duration.ofSeconds(5));
        RedisClient client = RedisClient.create(redisUri);
        try {
            StatefulRedisConnection<String, String> connection = client.connect();
            return new Redis(client, connection, new StreamKeys(config.namespace()), config.redisUri());
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            // The client's own words may quote the URI too, so the whole line is masked.
            throw new ServiceUnavailableException(UrlCredentials.mask("Redis at " + config.redisUri() + " is not reachable: "
                    + ServiceUnavailableException.rootMessage(e)), e);
        }
    }

    public RedisCommands<String, String> sync() {
        return connection.sync();
    }

    public StatefulRedisConnection<String, String> connection() {
        return connection;
    }

    /**
     * A new connection of its own, for blocking reads that must not stall the shared one. Values come as bytes, so
     * that the reader can tell text that is not UTF-8 from text that is.
     */
    public StatefulRedisConnection<String, byte[]> newBinaryConnection() {
        return client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
    }

    public StreamKeys keys() {
        return keys;
    }

    public String uri() {
        return uri;
    }

    /** Deletes every key of the namespace (tests and sandbox re-seeding). */
    public void deleteNamespaceKeys() {
        RedisCommands<String, String> commands = sync();
        for (String key : commands.keys(keys.pattern())) {
            commands.del(key);
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
