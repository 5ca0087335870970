package dev.redrive.console.profile;

import java.nio.file.Path;

/** Opens the vault this session can use: the OS keychain, else the file encrypted with a master password. */
public final class PasswordVaults {
    private PasswordVaults() {
    }

    /** The OS keychain when one answers, else {@code passwords.p12} in {@code directory} under a master password. */
    public static PasswordVault open(Path directory, MasterPasswordPrompt prompt) {
        return KeychainVault.open().<PasswordVault>map(vault -> vault)
                .orElseGet(() -> new EncryptedFileVault(directory, prompt));
    }

    /**
     * Moves the passwords of an earlier version's {@code secrets.p12} (protected by a constant) into {@code vault} and
     * deletes that file; how many were moved (0 when there is no such file). Call it off the FX thread: it may ask
     * for the master password.
     */
    public static int moveEarlierVersionsPasswords(Path directory, PasswordVault vault) {
        return LegacySecretsFile.migrate(directory, vault);
    }
}
