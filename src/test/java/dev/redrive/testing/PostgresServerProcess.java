package dev.redrive.testing;

import dev.redrive.demo.embedded.EmbeddedBinaries;
import dev.redrive.demo.embedded.ServerUser;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of a test's own, in a fresh cluster on a free port: the one {@link TestServers} shares with
 * every test of a JVM when no server is named, and one of a test's own for tests that must crash or restart
 * PostgreSQL. Unlike {@link RedisServerProcess} it keeps its data across a restart: an immediate
 * stop is a crash of the server process, and the restart runs crash recovery on the same cluster, as in production.
 * fsync is off: the machine does not crash, only the server does, so what was committed is still in the OS cache.
 *
 * <p>initdb and postgres refuse to run as root; as root the cluster belongs to the {@code postgres} OS user (or
 * {@code nobody} where there is none) and every server command runs as that user. The binaries are those in
 * {@code REDRIVE_PG_BIN}, or else the PostgreSQL 16 the test dependencies bring ({@link EmbeddedBinaries}).
 * {@link #close()} stops the server and deletes the cluster.
 */
public final class PostgresServerProcess implements AutoCloseable {
    /** REDRIVE_PG_BIN's, or else the PostgreSQL 16 the test dependencies bring, so that none need be installed. */
    private static final Path BIN = System.getenv("REDRIVE_PG_BIN") != null ? Path.of(System.getenv("REDRIVE_PG_BIN"))
            : EmbeddedBinaries.postgresBin();
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    private final int port;
    private final Path dir;
    private final Path data;
    private String tlsOptions = "";
    private boolean running;

    private PostgresServerProcess(int port, Path dir) {
        this.port = port;
        this.dir = dir;
        this.data = dir.resolve("data");
    }

    /** Creates a cluster (trust authentication, superuser {@code postgres}) and starts it. */
    public static PostgresServerProcess start() {
        return start(null);
    }

    /** As {@link #start()}, with {@code ssl=on} and the server's certificate and key of {@code certificates}. */
    public static PostgresServerProcess startWithTls(TestCertificates certificates) {
        return start(certificates);
    }

    private static PostgresServerProcess start(TestCertificates certificates) {
        Path dir;
        try {
            dir = Files.createTempDirectory("redrive-pg-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        PostgresServerProcess server = null;
        try {
            server = new PostgresServerProcess(FreePort.next(), dir);
            server.initdb();
            if (certificates != null) {
                server.installTls(certificates);
            }
            server.launch();
            return server;
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            } else {
                delete(dir);
            }
            throw e;
        }
    }

    public int port() {
        return port;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /**
     * Creates a login that must give its password (SCRAM) over TCP, while {@code postgres} stays trusted: the first
     * matching line of pg_hba.conf decides, so the login's line goes on top, and a reload applies it.
     */
    public void requirePassword(String login, String password) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl(), "postgres", "");
             Statement statement = connection.createStatement()) {
            statement.execute("SET password_encryption = 'scram-sha-256'");
            statement.execute("CREATE ROLE \"" + login + "\" LOGIN SUPERUSER PASSWORD '" + password.replace("'", "''") + "'");
            Path hba = data.resolve("pg_hba.conf");
            Files.writeString(hba, "host all " + login + " 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba));
            statement.execute("SELECT pg_reload_conf()");
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot require a password of " + login, e);
        }
    }

    /** Stops the server the way a crash does (immediate shutdown: no checkpoint) and starts it again on the same port. */
    public void restartAfterCrash(Duration down) throws InterruptedException {
        crash();
        Thread.sleep(down.toMillis());
        launch();
    }

    /** Immediate shutdown: the postmaster kills its backends at once, clients see their connections drop. */
    public void crash() {
        if (running) {
            running = false;
            pgCtl("stop", "-m", "immediate");
        }
    }

    private void initdb() {
        chownToServerUser(dir);
        run(List.of(BIN.resolve("initdb").toString(), "-D", data.toString(), "--auth=trust", "-U", "postgres",
                "-E", "UTF8", "--locale=C", "--no-sync"));
    }

    /** PostgreSQL reads its key only when the server's OS user owns it and nobody else may read it. */
    private void installTls(TestCertificates certificates) {
        Path certificate = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        try {
            Files.copy(certificates.serverCertificate(), certificate);
            Files.copy(certificates.serverKey(), key);
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install the server certificate in " + dir, e);
        }
        chownToServerUser(certificate);
        chownToServerUser(key);
        tlsOptions = " -c ssl=on -c ssl_cert_file=" + certificate + " -c ssl_key_file=" + key;
    }

    private void launch() {
        // The socket directory in the cluster's own directory, so that it never collides with the shared server's.
        String options = "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir + " -c fsync=off"
                + " -c full_page_writes=off" + tlsOptions;
        pgCtl("start", "-l", dir.resolve("server.log").toString(), "-o", options);
        running = true;
    }

    private void pgCtl(String action, String... arguments) {
        List<String> command = new ArrayList<>(List.of(BIN.resolve("pg_ctl").toString(), action, "-D", data.toString(),
                "-w", "-t", "30"));
        command.addAll(List.of(arguments));
        run(command);
    }

    private void run(List<String> command) {
        List<String> full = ServerUser.command(command);
        Path log = dir.resolve("commands.log");
        try {
            Process process = new ProcessBuilder(full).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in " + COMMAND_TIMEOUT
                        + ": see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed with exit code "
                        + process.exitValue() + ": " + tail(log) + tail(dir.resolve("server.log")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0) + " (set REDRIVE_PG_BIN to PostgreSQL's bin "
                    + "directory)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Run as root, the server runs as another user, who must own its files (initdb and postgres refuse root). */
    private static void chownToServerUser(Path path) {
        try {
            ServerUser.own(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give " + path + " to the user the server runs as", e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            return "\n" + log + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "\n(" + log + " unreadable: " + e + ")";
        }
    }

    private static void delete(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    /** Stops the server (immediately: nothing in it is kept) and deletes the cluster. */
    @Override
    public void close() {
        try {
            crash();
        } catch (RuntimeException e) {
            killPostmaster();
            throw e;
        } finally {
            delete(dir);
        }
    }

    /** When pg_ctl cannot stop it: the postmaster this cluster started, by the pid in its lock file. */
    private void killPostmaster() {
        try {
            Path pidFile = data.resolve("postmaster.pid");
            if (Files.exists(pidFile)) {
                long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).strip());
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        } catch (IOException | RuntimeException e) {
            // Best effort after a failed stop; the failure of the stop itself is what gets reported.
        }
    }
}
