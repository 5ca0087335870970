package dev.redrive.console.profile;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Properties;

/**
 * How the encrypted vault's key is derived from the master password: PBKDF2 with HMAC-SHA256, a random salt and a high
 * iteration count, all kept beside the vault (none of them is secret), so that a guess at the master password costs
 * the attacker as much as it costs the console once per session.
 *
 * @param iterations OWASP's 2023 figure for PBKDF2-HMAC-SHA256
 */
record MasterKey(String algorithm, int iterations, byte[] salt) {
    static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    static final int ITERATIONS = 600_000;
    private static final int KEY_BITS = 256;

    static MasterKey fresh() {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return new MasterKey(ALGORITHM, ITERATIONS, salt);
    }

    static MasterKey read(Path file) {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
            return new MasterKey(properties.getProperty("algorithm"), Integer.parseInt(properties.getProperty("iterations")),
                    Base64.getDecoder().decode(properties.getProperty("salt")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the key derivation of the password vault from " + file, e);
        } catch (RuntimeException e) {
            throw new IllegalStateException(file + " is damaged: expected algorithm, iterations and salt", e);
        }
    }

    void write(Path file) {
        Properties properties = new Properties();
        properties.setProperty("algorithm", algorithm);
        properties.setProperty("iterations", Integer.toString(iterations));
        properties.setProperty("salt", Base64.getEncoder().encodeToString(salt));
        try {
            Files.createDirectories(file.getParent());
            try (OutputStream out = Files.newOutputStream(file)) {
                properties.store(out, "Redrive password vault: how its key is derived from the master password");
            }
            PasswordKeyStore.ownerOnly(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The vault's store password: the derived key, as text. */
    char[] derive(char[] masterPassword) {
        try {
            PBEKeySpec spec = new PBEKeySpec(masterPassword, salt, iterations, KEY_BITS);
            byte[] key = SecretKeyFactory.getInstance(algorithm).generateSecret(spec).getEncoded();
            spec.clearPassword();
            return Base64.getEncoder().encodeToString(key).toCharArray();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot derive the vault key with " + algorithm + ": " + e.getMessage(), e);
        }
    }
}
