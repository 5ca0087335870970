package dev.redrive.demo.embedded;

import dev.redrive.config.ConfigurationException;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sandbox's own PostgreSQL 16: a cluster in {@code dir} (created once with initdb, trust authentication for local
 * connections only, superuser {@code postgres}), started on a free port of 127.0.0.1 and stopped with a fast
 * shutdown, so that its data survives to the next start.
 */
public final class EmbeddedPostgres implements AutoCloseable {
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final Path data;
    private final int port;

    private EmbeddedPostgres(Path dir, int port) {
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
    }

    public static EmbeddedPostgres start(Path dir) {
        EmbeddedPostgres server = new EmbeddedPostgres(dir, FreePorts.any());
        try {
            Files.createDirectories(dir);
            ServerUser.own(dir);
            if (!Files.exists(server.data.resolve("PG_VERSION"))) {
                server.run(List.of(bin("initdb"), "-D", server.data.toString(), "--auth=trust", "-U", "postgres",
                        "-E", "UTF8", "--locale=C"));
            }
            Path lock = server.data.resolve("postmaster.pid");
            if (Files.exists(lock)) {
                long pid = Long.parseLong(Files.readAllLines(lock).get(0).strip());
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    throw new ConfigurationException("the sandbox's own PostgreSQL already runs on " + dir
                            + " (process " + pid + "): point this command at it with the settings its sandbox printed ("
                            + dir.resolveSibling("sandbox.env") + "), or stop that sandbox first");
                }
                // Left by a sandbox whose server was killed too: a stale lock file, which pg_ctl start would refuse.
                Files.delete(lock);
            }
            server.run(List.of(bin("pg_ctl"), "start", "-D", server.data.toString(), "-w", "-t", "60", "-l",
                    dir.resolve("server.log").toString(), "-o", "-p " + server.port
                            + " -c listen_addresses=127.0.0.1 -k " + dir));
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare PostgreSQL's folder " + dir, e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /** A fast shutdown: sessions end, what was committed is on disk for the next start. */
    @Override
    public void close() {
        run(List.of(bin("pg_ctl"), "stop", "-D", data.toString(), "-m", "fast", "-w", "-t", "60"));
    }

    private static String bin(String program) {
        return EmbeddedBinaries.postgresBin().resolve(program).toString();
    }

    private void run(List<String> command) {
        Path log = dir.resolve("commands.log");
        try {
            Process process = new ProcessBuilder(ServerUser.command(command)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(new File(command.get(0)).getName() + " did not finish in "
                        + COMMAND_TIMEOUT.toSeconds() + " s: see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(new File(command.get(0)).getName() + " failed (exit "
                        + process.exitValue() + "): see " + log + " and " + dir.resolve("server.log")
                        + (ServerUser.isRoot() ? "; run as root, the server runs as another user, who must be able to "
                        + "enter every folder above " + dir : ""));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Free ports of 127.0.0.1, as the operating system hands them out. */
    static final class FreePorts {
        private FreePorts() {
        }

        static int any() {
            try (ServerSocket socket = new ServerSocket(0)) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
