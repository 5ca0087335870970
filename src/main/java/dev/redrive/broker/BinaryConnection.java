package dev.redrive.broker;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * A connection of its own whose values come as bytes, for blocking reads that must not stall the shared connection
 * and that must tell text that is not UTF-8 from text that is. Works the same on a standalone server and a cluster.
 */
public final class BinaryConnection implements AutoCloseable {
    private final StatefulConnection<String, byte[]> connection;
    private final RedisClusterCommands<String, byte[]> commands;

    BinaryConnection(StatefulConnection<String, byte[]> connection, RedisClusterCommands<String, byte[]> commands) {
        this.connection = connection;
        this.commands = commands;
    }

    public RedisClusterCommands<String, byte[]> sync() {
        return commands;
    }

    @Override
    public void close() {
        connection.close();
    }
}
