package dev.redrive.cli;

import dev.redrive.config.RedriveConfig;
import dev.redrive.demo.embedded.EmbeddedBinaries;
import dev.redrive.demo.embedded.EmbeddedServers;
import dev.redrive.demo.embedded.SandboxDirectory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The servers {@code demo} and {@code console --demo} run the sandbox on: those the settings name, or, when none is
 * named (no REDRIVE_PG_URL or REDRIVE_REDIS_URI, no --pg-url or --redis-uri), the sandbox's own, started here from
 * the binaries that come with Redrive, never a server that happens to listen on a default port. Closing stops the
 * servers it started.
 */
final class SandboxServers implements AutoCloseable {
    private final RedriveConfig config;
    private final EmbeddedServers embedded;

    private SandboxServers(RedriveConfig config, EmbeddedServers embedded) {
        this.config = config;
        this.embedded = embedded;
    }

    static SandboxServers choose(ConnectionOptions connection, PrintWriter out) {
        RedriveConfig configured = DemoNamespace.config(connection);
        if (connection.serversGiven()) {
            return new SandboxServers(configured, null);
        }
        EmbeddedBinaries.unsupportedHere().ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        Path dir = SandboxDirectory.forCurrentUser();
        out.println("No PostgreSQL or Redis is configured: starting the sandbox's own, data in " + dir);
        out.flush();
        EmbeddedServers embedded = EmbeddedServers.start(dir);
        return new SandboxServers(embedded.config(configured.namespace()), embedded);
    }

    RedriveConfig config() {
        return config;
    }

    boolean embedded() {
        return embedded != null;
    }

    /**
     * The settings as shell lines, written to {@code sandbox.env} in the sandbox's folder too, so that any terminal can
     * point every command at the sandbox with {@code eval "$(cat FILE)"}; empty for servers the settings named.
     */
    String exports() {
        if (embedded == null) {
            return "";
        }
        String lines = "export REDRIVE_PG_URL=" + config.pgUrl() + "\n"
                + "export REDRIVE_REDIS_URI=" + config.redisUri() + "\n"
                + "export REDRIVE_NAMESPACE=" + config.namespace() + "\n";
        Path file = envFile();
        try {
            Files.writeString(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return "The sandbox's own servers, for any command (console --demo included) in another terminal:\n" + lines
                + "(also in " + file + ": eval \"$(cat " + file + ")\")\n";
    }

    /** Where {@link #exports} writes the settings of the sandbox's own servers. */
    static Path envFile() {
        return SandboxDirectory.forCurrentUser().resolve("sandbox.env");
    }

    /** Has {@code user} stop before the sandbox's own servers, however they stop (Ctrl-C included). */
    void stopFirst(AutoCloseable user) {
        if (embedded != null) {
            embedded.stopFirst(user);
        }
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        }
    }
}
