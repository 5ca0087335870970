package dev.redrive.console.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The {@code secrets.p12} of earlier versions, whose store password was a constant of the source code: anyone who could
 * read the file could read the passwords. It is read once with that constant, moved into the vault in use and deleted;
 * nothing is ever written with the constant again.
 */
final class LegacySecretsFile {
    private static final char[] EARLIER_VERSIONS_CONSTANT = "redrive-console".toCharArray();

    private LegacySecretsFile() {
    }

    static Path in(Path directory) {
        return directory.resolve("secrets.p12");
    }

    /** Moves every password of the old file into {@code vault}, then deletes the file; how many were moved. */
    static int migrate(Path directory, PasswordVault vault) {
        Path file = in(directory);
        if (!Files.exists(file)) {
            return 0;
        }
        Map<String, String> passwords;
        try {
            passwords = PasswordKeyStore.read(file, EARLIER_VERSIONS_CONSTANT);
        } catch (PasswordKeyStore.WrongPasswordException e) {
            throw new IllegalStateException(file + " is not the password store of an earlier version (its password "
                    + "differs); move it away to go on", e);
        }
        passwords.forEach(vault::remember);
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException("moved the passwords of " + file + " but cannot delete it", e);
        }
        return passwords.size();
    }
}
