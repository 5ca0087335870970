package dev.redrive.console.profile;

import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;

/**
 * Remembered PostgreSQL passwords, in a PKCS#12 key store ({@code secrets.p12}) beside the profiles. The file is
 * readable by its owner only: the OS account is what protects it, so the passwords never sit in a plain text file.
 */
public final class PasswordVault {
    private static final char[] STORE_PASSWORD = "redrive-console".toCharArray();
    private static final String PREFIX = "pg-password:";

    private final Path file;

    public PasswordVault(Path directory) {
        this.file = directory.resolve("secrets.p12");
    }

    public synchronized Optional<String> password(String profileName) {
        try {
            KeyStore store = load();
            KeyStore.Entry entry = store.getEntry(PREFIX + profileName, new KeyStore.PasswordProtection(STORE_PASSWORD));
            if (!(entry instanceof KeyStore.SecretKeyEntry secret)) {
                return Optional.empty();
            }
            SecretKeyFactory factory = SecretKeyFactory.getInstance("PBE");
            PBEKeySpec spec = (PBEKeySpec) factory.getKeySpec(secret.getSecretKey(), PBEKeySpec.class);
            return Optional.of(new String(spec.getPassword()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the remembered password of " + profileName + " from " + file
                    + ": " + e.getMessage(), e);
        }
    }

    public synchronized void remember(String profileName, String password) {
        try {
            KeyStore store = load();
            SecretKey key = SecretKeyFactory.getInstance("PBE").generateSecret(new PBEKeySpec(password.toCharArray()));
            store.setEntry(PREFIX + profileName, new KeyStore.SecretKeyEntry(key),
                    new KeyStore.PasswordProtection(STORE_PASSWORD));
            save(store);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot remember the password of " + profileName + ": " + e.getMessage(), e);
        }
    }

    public synchronized void forget(String profileName) {
        try {
            KeyStore store = load();
            if (store.containsAlias(PREFIX + profileName)) {
                store.deleteEntry(PREFIX + profileName);
                save(store);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot forget the password of " + profileName + ": " + e.getMessage(), e);
        }
    }

    private KeyStore load() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            if (Files.exists(file)) {
                try (InputStream in = Files.newInputStream(file)) {
                    store.load(in, STORE_PASSWORD);
                }
            } else {
                store.load(null, STORE_PASSWORD);
            }
            return store;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private void save(KeyStore store) throws GeneralSecurityException {
        try {
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            try (OutputStream out = Files.newOutputStream(temporary)) {
                store.store(out, STORE_PASSWORD);
            }
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
