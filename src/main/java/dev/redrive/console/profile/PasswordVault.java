package dev.redrive.console.profile;

import java.util.Optional;

/**
 * Where the console remembers PostgreSQL passwords, per profile, when the operator asks it to: the OS keychain
 * ({@link KeychainVault}), else a file encrypted with a master password ({@link EncryptedFileVault}). Opened by
 * {@link PasswordVaults#open}. Calls may block (a keychain over D-Bus, a master-password prompt): make them off the FX
 * thread.
 */
public interface PasswordVault extends AutoCloseable {

    /** The remembered password of the profile; empty when none is. */
    Optional<String> password(String profileName);

    void remember(String profileName, String password);

    /** Forgets the profile's password; nothing happens when none was remembered. */
    void forget(String profileName);

    /** Where the passwords are, for the operator: "the OS keychain (GNOME_KEYRING)", "FILE (master password)". */
    String place();

    /** Lets go of the keychain's connection (its threads would keep the JVM alive); a file holds nothing open. */
    @Override
    default void close() {
    }
}
