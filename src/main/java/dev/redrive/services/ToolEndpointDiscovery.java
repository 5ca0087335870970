package dev.redrive.services;

import dev.redrive.store.Database;

import java.net.URI;
import java.util.Map;

/**
 * Where tools that run beside a namespace answer look-ups, found afresh at each look-up (they may start or stop while
 * a console stays open); given to the services by whoever wires them, so that the services know no tool of their own.
 * The command line passes the demo tools' discovery; an embedding or a test passes {@link #NONE}.
 */
@FunctionalInterface
public interface ToolEndpointDiscovery {
    ToolEndpointDiscovery NONE = database -> Map.of();

    /** Per tool name, its look-up endpoint. */
    Map<String, URI> endpoints(Database database);
}
