package dev.redrive.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The operating system's programs a few tests need beyond a JDK (a Prometheus server, a Secret Service,
 * psql): where one is missing the test is skipped, and the build output says which and why, so that a machine with
 * a JDK and Maven alone runs everything else.
 */
public final class OsCommands {
    private OsCommands() {
    }

    public static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }

    /** Skips the calling test unless every one of {@code commands} is on the PATH; {@code what} says what it checks. */
    public static void assumeInstalled(String what, String... commands) {
        for (String command : commands) {
            if (!onPath(command)) {
                String line = "SKIPPED " + what + ": needs `" + command + "` on the PATH, which this machine lacks";
                System.err.println(line);
                assumeTrue(false, line);
            }
        }
    }
}
