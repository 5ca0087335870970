package dev.redrive.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A PostgreSQL password kept in a file: its first line, without the line break. Unlike an option, the value never
 * shows in {@code ps}, and unlike an environment variable it is not inherited by every child process.
 */
public final class PasswordFile {
    /** How the setting is named in error lines: {@code REDRIVE_PG_PASSWORD_FILE (--pg-password-file)}. */
    public static final String SETTING = "REDRIVE_PG_PASSWORD_FILE (--pg-password-file)";

    private PasswordFile() {
    }

    public static String read(String file) {
        Path path = Path.of(file);
        List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (NoSuchFileException e) {
            throw new ConfigurationException(SETTING + " names " + file + ", which does not exist; expected a file "
                    + "whose first line is the password");
        } catch (AccessDeniedException e) {
            throw new ConfigurationException(SETTING + " names " + file + ", which this user may not read; expected a "
                    + "file readable by the user running redrive");
        } catch (IOException e) {
            throw new ConfigurationException(SETTING + " names " + file + ", which cannot be read ("
                    + e.getClass().getSimpleName() + "); expected a file whose first line is the password");
        }
        if (lines.isEmpty() || lines.get(0).isEmpty()) {
            throw new ConfigurationException(SETTING + " names " + file + ", whose first line is empty; expected the "
                    + "password on its first line");
        }
        return lines.get(0);
    }

    /** A warning when others than the owner may read the file, as ssh gives for a key; empty where POSIX modes do not apply. */
    public static Optional<String> looseness(String file) {
        try {
            Set<PosixFilePermission> modes = Files.getPosixFilePermissions(Path.of(file));
            if (modes.contains(PosixFilePermission.GROUP_READ) || modes.contains(PosixFilePermission.OTHERS_READ)) {
                return Optional.of("warning: password file " + file + " may be read by other users; chmod 600 it");
            }
        } catch (IOException | UnsupportedOperationException e) {
            // Not a POSIX file system, or gone since it was read: nothing to say about its modes.
        }
        return Optional.empty();
    }
}
