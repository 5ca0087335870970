package dev.redrive.tls;

import dev.redrive.config.ConfigurationException;
import dev.redrive.config.TlsSettings;

import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;

/** The CAs a server's certificate must be signed by: those of the CA file, else those the JVM trusts. */
public final class TrustedCas {
    private TrustedCas() {
    }

    /** Trust managers for exactly the CAs of {@code tls}; a CA file that holds no certificate is named in one line. */
    public static TrustManagerFactory trustManagers(TlsSettings tls) {
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(tls.caFile() == null ? null : keyStoreOf(tls.caFile()));
            return factory;
        } catch (GeneralSecurityException e) {
            throw new ConfigurationException("REDRIVE_TLS_CA (--tls-ca) " + tls.caFile() + " is not usable: " + e.getMessage());
        }
    }

    /** How an error line names the trusted CAs: "the CA in FILE" or "a CA the JVM trusts". */
    public static String describe(TlsSettings tls) {
        return tls.caFile() == null ? "a CA the JVM trusts (give the servers' CA with --tls-ca)"
                : "the CA in " + tls.caFile();
    }

    static X509ExtendedTrustManager trustManager(TlsSettings tls) {
        for (TrustManager manager : trustManagers(tls).getTrustManagers()) {
            if (manager instanceof X509ExtendedTrustManager x509) {
                return x509;
            }
        }
        throw new IllegalStateException("the JVM offers no X.509 trust manager");
    }

    private static KeyStore keyStoreOf(Path caFile) throws GeneralSecurityException {
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(caFile)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException e) {
            throw new ConfigurationException("REDRIVE_TLS_CA (--tls-ca) cannot be read: " + caFile + " (" + e.getMessage() + ")");
        }
        if (certificates.isEmpty()) {
            throw new ConfigurationException("REDRIVE_TLS_CA (--tls-ca) " + caFile
                    + " holds no certificate; expected PEM blocks -----BEGIN CERTIFICATE-----");
        }
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create an empty key store", e);
        }
        int index = 0;
        for (Certificate certificate : certificates) {
            store.setCertificateEntry("ca-" + index++, certificate);
        }
        return store;
    }
}
