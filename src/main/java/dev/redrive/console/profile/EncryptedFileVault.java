package dev.redrive.console.profile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Remembered passwords where no OS keychain answers: {@code passwords.p12} (PKCS#12, owner-only) whose store password
 * is a key derived from a master password ({@link MasterKey}, parameters in {@code passwords.kdf}). The operator gives
 * the master password once per session, when a remembered password is first read or written; reading with none
 * remembered asks nothing.
 */
public final class EncryptedFileVault implements PasswordVault {
    private final Path file;
    private final Path keyFile;
    private final MasterPasswordPrompt prompt;
    private char[] storePassword;

    public EncryptedFileVault(Path directory, MasterPasswordPrompt prompt) {
        this.file = directory.resolve("passwords.p12");
        this.keyFile = directory.resolve("passwords.kdf");
        this.prompt = prompt;
    }

    @Override
    public synchronized Optional<String> password(String profileName) {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        return Optional.ofNullable(passwords().get(profileName));
    }

    @Override
    public synchronized void remember(String profileName, String password) {
        Map<String, String> passwords = Files.exists(file) ? passwords() : new TreeMap<>();
        passwords.put(profileName, password);
        PasswordKeyStore.write(file, unlock(), passwords);
    }

    @Override
    public synchronized void forget(String profileName) {
        if (!Files.exists(file)) {
            return;
        }
        Map<String, String> passwords = passwords();
        if (passwords.remove(profileName) != null) {
            PasswordKeyStore.write(file, unlock(), passwords);
        }
    }

    @Override
    public String place() {
        return file + " (encrypted with your master password)";
    }

    private Map<String, String> passwords() {
        char[] key = unlock();
        try {
            return new TreeMap<>(PasswordKeyStore.read(file, key));
        } catch (PasswordKeyStore.WrongPasswordException e) {
            throw new IllegalStateException("the key that opened " + file + " no longer does: was it replaced?", e);
        }
    }

    /** The derived key, asked for once: a new vault takes the password the operator chooses, an existing one checks it. */
    private char[] unlock() {
        if (storePassword != null) {
            return storePassword;
        }
        boolean creating = !Files.exists(file);
        String problem = "";
        while (true) {
            char[] master = prompt.ask(creating, problem).orElseThrow(() -> new VaultLockedException(
                    "remembered passwords stay locked: no master password was given for " + file));
            try {
                if (master.length == 0) {
                    problem = "the master password must not be empty";
                    continue;
                }
                MasterKey key = creating ? MasterKey.fresh() : MasterKey.read(keyFile);
                char[] derived = key.derive(master);
                if (creating) {
                    key.write(keyFile);
                    storePassword = derived;
                    return derived;
                }
                PasswordKeyStore.read(file, derived);
                storePassword = derived;
                return derived;
            } catch (PasswordKeyStore.WrongPasswordException e) {
                problem = "wrong master password for " + file + "; expected the one chosen when the first password "
                        + "was remembered";
            } finally {
                Arrays.fill(master, '\0');
            }
        }
    }
}
