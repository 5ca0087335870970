package dev.redrive.demo.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL refuses to run as root. Run as root, its commands run as the {@code postgres} user (or {@code nobody}
 * where there is none), through runuser, and its folders belong to that user; run as anyone else, as they are.
 */
public final class ServerUser {
    private static final String NAME = userExists("postgres") ? "postgres" : "nobody";

    private ServerUser() {
    }

    public static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** {@code command}, run as the server's user. */
    public static List<String> command(List<String> command) {
        List<String> full = new ArrayList<>();
        if (isRoot()) {
            full.addAll(List.of("runuser", "-u", NAME, "--"));
        }
        full.addAll(command);
        return full;
    }

    /** Gives {@code path} to the server's user when run as root. */
    public static void own(Path path) throws IOException {
        if (isRoot()) {
            UserPrincipal owner = path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(NAME);
            Files.setOwner(path, owner);
        }
    }

    private static boolean userExists(String name) {
        try {
            return Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(line -> line.startsWith(name + ":"));
        } catch (IOException e) {
            return false;
        }
    }
}
