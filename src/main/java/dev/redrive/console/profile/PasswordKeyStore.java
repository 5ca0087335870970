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
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Profile passwords as secret-key entries of a PKCS#12 file, under one store password: the format of the encrypted
 * vault and of the {@code secrets.p12} that earlier versions wrote.
 */
final class PasswordKeyStore {
    private static final String PREFIX = "pg-password:";

    /** The store password did not open the file (PKCS#12's integrity check failed). */
    static final class WrongPasswordException extends Exception {
        WrongPasswordException(Throwable cause) {
            super(cause);
        }
    }

    private PasswordKeyStore() {
    }

    /** Every profile's password in the file; an absent file holds none. */
    static Map<String, String> read(Path file, char[] storePassword) throws WrongPasswordException {
        try {
            KeyStore store = load(file, storePassword);
            Map<String, String> passwords = new LinkedHashMap<>();
            SecretKeyFactory factory = SecretKeyFactory.getInstance("PBE");
            for (String alias : Collections.list(store.aliases())) {
                if (alias.startsWith(PREFIX) && store.getEntry(alias, new KeyStore.PasswordProtection(storePassword))
                        instanceof KeyStore.SecretKeyEntry entry) {
                    PBEKeySpec spec = (PBEKeySpec) factory.getKeySpec(entry.getSecretKey(), PBEKeySpec.class);
                    passwords.put(alias.substring(PREFIX.length()), new String(spec.getPassword()));
                }
            }
            return passwords;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the passwords in " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes the passwords as the whole file, readable by its owner only, replacing it atomically. */
    static void write(Path file, char[] storePassword, Map<String, String> passwords) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, storePassword);
            SecretKeyFactory factory = SecretKeyFactory.getInstance("PBE");
            for (Map.Entry<String, String> password : passwords.entrySet()) {
                SecretKey key = factory.generateSecret(new PBEKeySpec(password.getValue().toCharArray()));
                store.setEntry(PREFIX + password.getKey(), new KeyStore.SecretKeyEntry(key),
                        new KeyStore.PasswordProtection(storePassword));
            }
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            try (OutputStream out = Files.newOutputStream(temporary)) {
                store.store(out, storePassword);
            }
            ownerOnly(temporary);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot write the passwords to " + file + ": " + e.getMessage(), e);
        }
    }

    static void ownerOnly(Path file) throws IOException {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
    }

    private static KeyStore load(Path file, char[] storePassword) throws GeneralSecurityException, WrongPasswordException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            if (Files.exists(file)) {
                try (InputStream in = Files.newInputStream(file)) {
                    store.load(in, storePassword);
                }
            } else {
                store.load(null, storePassword);
            }
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new WrongPasswordException(e);
            }
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
