package dev.redrive.console.profile;

import com.github.javakeyring.BackendNotSupportedException;
import com.github.javakeyring.Keyring;
import com.github.javakeyring.PasswordAccessException;

import java.util.Optional;

/**
 * Remembered passwords in the OS keychain through java-keyring: the Secret Service on Linux (GNOME Keyring, KWallet),
 * Windows Credential Manager, macOS Keychain. Each is an item of the service "Redrive" under the profile's name.
 */
public final class KeychainVault implements PasswordVault {
    static final String SERVICE = "Redrive";

    private final Keyring keyring;

    private KeychainVault(Keyring keyring) {
        this.keyring = keyring;
    }

    /** The keychain, when this session has one that answers (no D-Bus session or no Secret Service: empty). */
    public static Optional<KeychainVault> open() {
        try {
            return Optional.of(new KeychainVault(Keyring.create()));
        } catch (BackendNotSupportedException | RuntimeException | LinkageError e) {
            // java-keyring probes the platform's backends; one that is missing or fails to load means no keychain.
            return Optional.empty();
        }
    }

    @Override
    public synchronized Optional<String> password(String profileName) {
        try {
            return Optional.ofNullable(keyring.getPassword(SERVICE, profileName));
        } catch (PasswordAccessException e) {
            // java-keyring reports "no such item" with the same type as a failed read: both leave nothing remembered,
            // and the console then asks for the password.
            return Optional.empty();
        }
    }

    @Override
    public synchronized void remember(String profileName, String password) {
        try {
            keyring.setPassword(SERVICE, profileName, password);
        } catch (PasswordAccessException e) {
            throw new IllegalStateException("the OS keychain refused to keep the password of " + profileName + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void forget(String profileName) {
        if (password(profileName).isEmpty()) {
            return;
        }
        try {
            keyring.deletePassword(SERVICE, profileName);
        } catch (PasswordAccessException e) {
            throw new IllegalStateException("the OS keychain refused to forget the password of " + profileName + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            keyring.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the OS keychain's connection: " + e.getMessage(), e);
        }
    }

    @Override
    public String place() {
        return "the OS keychain (" + keyring.getKeyringStorageType() + ")";
    }
}
