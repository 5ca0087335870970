package dev.redrive.config;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How Redrive speaks TLS to PostgreSQL and Redis ({@code REDRIVE_TLS}, {@code REDRIVE_TLS_CA}): one verification
 * mode and one CA file for both servers.
 *
 * @param mode   {@link Mode#AS_URLS} leaves TLS to the URLs ({@code sslmode=} in the JDBC URL, {@code rediss://});
 *               any other mode makes both connections TLS and verifies as much as it says
 * @param caFile a PEM file of the CA certificates that sign the servers' certificates; null trusts the CAs the JVM
 *               trusts. A CA file without a mode means {@link Mode#VERIFY_FULL}.
 */
public record TlsSettings(Mode mode, Path caFile) {

    /** TLS as the URLs say: what Redrive did before these settings existed. */
    public static final TlsSettings AS_URLS = new TlsSettings(Mode.AS_URLS, null);

    /** How much of the server's certificate is verified; the names are PostgreSQL's {@code sslmode} values. */
    public enum Mode {
        AS_URLS(""),
        /** Encrypted, but any certificate is accepted: protects against listening, not against impersonation. */
        REQUIRE("require"),
        /** The certificate must be signed by a trusted CA; the host name is not checked. */
        VERIFY_CA("verify-ca"),
        /** Signed by a trusted CA and issued for the host connected to. */
        VERIFY_FULL("verify-full");

        private final String option;

        Mode(String option) {
            this.option = option;
        }

        /** The value as typed: {@code require}, {@code verify-ca}, {@code verify-full}. */
        public String option() {
            return option;
        }

        /** Whether this mode, rather than the URLs, decides TLS. */
        public boolean enabled() {
            return this != AS_URLS;
        }

        public boolean verifiesCertificate() {
            return this == VERIFY_CA || this == VERIFY_FULL;
        }

        /** Reads the value an operator typed, in any case; blank is {@link #AS_URLS}. */
        public static Mode parse(String text) {
            if (text == null || text.isBlank()) {
                return AS_URLS;
            }
            String typed = text.trim().toLowerCase(Locale.ROOT);
            return Arrays.stream(values()).filter(mode -> mode.enabled() && mode.option.equals(typed)).findFirst()
                    .orElseThrow(() -> new ConfigurationException("REDRIVE_TLS (--tls) must be one of "
                            + Arrays.stream(values()).filter(Mode::enabled).map(Mode::option)
                            .collect(Collectors.joining(", ")) + ", got: " + text.trim()));
        }
    }

    public TlsSettings {
        mode = mode == null ? Mode.AS_URLS : mode;
        if (caFile != null) {
            if (mode == Mode.AS_URLS) {
                mode = Mode.VERIFY_FULL;
            } else if (mode == Mode.REQUIRE) {
                throw new ConfigurationException("REDRIVE_TLS_CA (--tls-ca) needs REDRIVE_TLS (--tls) verify-ca or "
                        + "verify-full: require accepts any certificate and would not use the CA, got: require");
            }
            if (!Files.isRegularFile(caFile) || !Files.isReadable(caFile)) {
                throw new ConfigurationException("REDRIVE_TLS_CA (--tls-ca) cannot be read: " + caFile
                        + "; expected a PEM file of the CA certificates that sign the servers' certificates");
            }
        }
    }

    /** From the text of the environment or the command line; blank means not given. */
    public static TlsSettings parse(String mode, String caFile) {
        Path ca = null;
        if (caFile != null && !caFile.isBlank()) {
            try {
                ca = Path.of(caFile.trim());
            } catch (InvalidPathException e) {
                throw new ConfigurationException("REDRIVE_TLS_CA (--tls-ca) is not a file name: " + caFile);
            }
        }
        return new TlsSettings(Mode.parse(mode), ca);
    }

    /** Whether these settings, rather than the URLs, decide TLS. */
    public boolean enabled() {
        return mode.enabled();
    }

    @Override
    public String toString() {
        return enabled() ? "tls=" + mode.option() + (caFile == null ? "" : " ca=" + caFile) : "tls as the URLs say";
    }
}
