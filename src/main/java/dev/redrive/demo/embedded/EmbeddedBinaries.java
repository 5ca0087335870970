package dev.redrive.demo.embedded;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Optional;

/**
 * The PostgreSQL and redis-server binaries that come with the application (zonky's PostgreSQL 16 archives,
 * embedded-redis's redis-server), unpacked once per machine into the temporary folder, readable by every user: run as
 * root, PostgreSQL is started as another user, which must reach them. Several processes (the sandbox, test JVMs) may
 * unpack at once; a file lock lets one do it.
 */
public final class EmbeddedBinaries {
    private static final String POSTGRES_VERSION = "16.10.0";
    /** The binaries embedded-redis ships: 6.2.6 for Linux on x86 and for macOS, 6.2.7 for Linux on ARM. */
    private static final String REDIS_RESOURCE = isMac() ? "redis-server-6.2.6-v5-darwin-"
            + (arch().equals("arm_64") ? "arm64" : "amd64")
            : arch().equals("arm_64") ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
    private static final Path ROOT = Path.of(System.getProperty("java.io.tmpdir"), "redrive-embedded-servers");

    private EmbeddedBinaries() {
    }

    /**
     * Why the servers that come with the application cannot run on this platform, or empty when they can: they are
     * built for Linux and macOS; embedded-redis's Windows binary is Redis 5, older than the 6.2 the worker needs.
     */
    public static Optional<String> unsupportedHere() {
        return unsupported(System.getProperty("os.name", ""), EmbeddedBinaries.class.getClassLoader()
                .getResource(postgresArchive()) != null);
    }

    static Optional<String> unsupported(String osName, boolean postgresArchivePresent) {
        if (osName.toLowerCase(Locale.ROOT).startsWith("windows") || !postgresArchivePresent) {
            return Optional.of("the sandbox's own PostgreSQL and Redis run on Linux and macOS on x86-64, not on "
                    + osName + " " + System.getProperty("os.arch") + ": set REDRIVE_PG_URL and REDRIVE_REDIS_URI "
                    + "(or --pg-url and --redis-uri) to servers of your own, PostgreSQL 13+ and Redis 6.2+");
        }
        return Optional.empty();
    }

    private static String postgresArchive() {
        return "postgres-" + (isMac() ? "darwin" : "linux") + "-" + arch() + ".txz";
    }

    /** PostgreSQL's bin folder (initdb, pg_ctl, postgres). */
    public static synchronized Path postgresBin() {
        Path home = ROOT.resolve("postgres-" + POSTGRES_VERSION);
        unpackOnce(home, target -> {
            try (InputStream in = resource(postgresArchive());
                 TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(
                         new BufferedInputStream(in)))) {
                for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                    Path path = target.resolve(entry.getName()).normalize();
                    if (!path.startsWith(target)) {
                        throw new IOException("archive entry outside its folder: " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(path);
                    } else if (entry.isSymbolicLink()) {
                        Files.createDirectories(path.getParent());
                        Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                    } else {
                        Files.createDirectories(path.getParent());
                        Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                                (entry.getMode() & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
                    }
                }
            }
        });
        return home.resolve("bin");
    }

    /** The redis-server binary. */
    public static synchronized Path redisServer() {
        Path home = ROOT.resolve(REDIS_RESOURCE);
        unpackOnce(home, target -> {
            try (InputStream in = resource(REDIS_RESOURCE)) {
                Path binary = target.resolve("redis-server");
                Files.copy(in, binary);
                Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        });
        return home.resolve("redis-server");
    }

    private interface Unpacker {
        void unpack(Path target) throws IOException;
    }

    /** Unpacks into {@code home} unless a finished unpacking is there (its marker written last). */
    private static void unpackOnce(Path home, Unpacker unpacker) {
        Path marker = home.resolve(".unpacked");
        try {
            Files.createDirectories(ROOT);
            ROOT.toFile().setReadable(true, false);
            ROOT.toFile().setExecutable(true, false);
            try (FileChannel lockFile = FileChannel.open(ROOT.resolve(home.getFileName() + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = lockFile.lock()) {
                if (Files.exists(marker)) {
                    return;
                }
                Files.createDirectories(home);
                Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
                unpacker.unpack(home);
                Files.createFile(marker);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack the embedded server into " + home, e);
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = EmbeddedBinaries.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException(name + " is not on the class path (the embedded server binaries of this "
                    + "platform: " + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")");
        }
        return in;
    }

    private static boolean isMac() {
        return System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("mac");
    }

    /** zonky's name for the processor: x86_64 or arm_64. */
    private static String arch() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        return arch.equals("aarch64") || arch.equals("arm64") ? "arm_64" : "x86_64";
    }
}
