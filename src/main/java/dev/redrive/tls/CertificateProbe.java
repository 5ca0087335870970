package dev.redrive.tls;

import dev.redrive.config.TlsSettings;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Names what is wrong with a server's certificate after a driver refused it. The drivers' own words differ (pgjdbc:
 * "The hostname ... could not be verified by hostnameverifier PgjdbcHostnameVerifier", Lettuce: "PKIX path building
 * failed ...") and are not typed; so the probe connects once more, takes the certificate and checks, one step at a
 * time, what the driver checked: the dates, the signature by a trusted CA, then the host name. The step that fails is
 * the problem; no message text is read.
 */
public final class CertificateProbe {
    private static final int TIMEOUT_MILLIS = 5_000;
    /** PostgreSQL's SSLRequest code: the client asks for TLS before the startup message. */
    private static final int POSTGRES_SSL_REQUEST = 80877103;

    /** How a server starts TLS: PostgreSQL after an SSLRequest, Redis's TLS port at once. */
    public enum Protocol { POSTGRESQL, REDIS }

    private CertificateProbe() {
    }

    /**
     * Whether {@code failure} may be a refused certificate: a TLS or certificate exception somewhere in its causes, or
     * pgjdbc's connection failure (08006), which is how it reports a host name its verifier refused.
     */
    public static boolean mayBeCertificateFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SSLException || cause instanceof CertificateException
                    || cause instanceof SQLException sql && "08006".equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /**
     * What is wrong with the certificate {@code host:port} presents, checked as {@code mode} with the CAs of
     * {@code tls}; empty when the certificate passes or the server cannot be asked (the failure lay elsewhere).
     */
    public static Optional<String> problem(Protocol protocol, String host, int port, TlsSettings.Mode mode, TlsSettings tls) {
        Checks checks = new Checks(TrustedCas.trustManager(tls), mode == TlsSettings.Mode.VERIFY_FULL, host,
                TrustedCas.describe(tls));
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            plain.setSoTimeout(TIMEOUT_MILLIS);
            if (protocol == Protocol.POSTGRESQL && !postgresAcceptsTls(plain)) {
                return Optional.of("the server does not accept TLS (its ssl setting is off)");
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[]{checks}, null);
            try (SSLSocket tlsSocket = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, false)) {
                SSLParameters parameters = tlsSocket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                tlsSocket.setSSLParameters(parameters);
                tlsSocket.startHandshake();
            }
        } catch (IOException | GeneralSecurityException e) {
            // A handshake that ended after the certificate was checked still says what the check found.
        }
        return Optional.ofNullable(checks.problem);
    }

    private static boolean postgresAcceptsTls(Socket socket) throws IOException {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(8);
        out.writeInt(POSTGRES_SSL_REQUEST);
        out.flush();
        return new DataInputStream(socket.getInputStream()).readByte() == 'S';
    }

    /** Accepts every certificate, so that the handshake gets as far as it can, and keeps the first check that failed. */
    private static final class Checks extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager trusted;
        private final boolean checkHost;
        private final String host;
        private final String trustedCas;
        private String problem;

        Checks(X509ExtendedTrustManager trusted, boolean checkHost, String host, String trustedCas) {
            this.trusted = trusted;
            this.checkHost = checkHost;
            this.host = host;
            this.trustedCas = trustedCas;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            X509Certificate certificate = chain[0];
            String subject = certificate.getSubjectX500Principal().getName();
            try {
                certificate.checkValidity();
            } catch (CertificateExpiredException e) {
                problem = "the server's certificate (" + subject + ") expired on " + certificate.getNotAfter().toInstant();
                return;
            } catch (CertificateNotYetValidException e) {
                problem = "the server's certificate (" + subject + ") is valid only from "
                        + certificate.getNotBefore().toInstant();
                return;
            }
            try {
                trusted.checkServerTrusted(chain, authType);
            } catch (CertificateException e) {
                problem = "the server's certificate (" + subject + ", issued by "
                        + certificate.getIssuerX500Principal().getName() + ") is not signed by " + trustedCas;
                return;
            }
            if (!checkHost) {
                return;
            }
            try {
                trusted.checkServerTrusted(chain, authType, socket);
            } catch (CertificateException e) {
                problem = "the server's certificate is issued for " + String.join(", ", names(certificate))
                        + ", not for the host " + host + "; connect by one of those names, or use --tls verify-ca";
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            throw new UnsupportedOperationException("the probe uses a socket");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("the probe uses a socket");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            throw new UnsupportedOperationException("the probe is a client");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            throw new UnsupportedOperationException("the probe is a client");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("the probe is a client");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /** The host names and addresses the certificate is issued for, else its subject. */
    private static List<String> names(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
            for (List<?> name : alternatives == null ? List.<List<?>>of() : alternatives) {
                // RFC 5280 GeneralName tags: 2 is a DNS name, 7 an IP address.
                int tag = (Integer) name.get(0);
                if (tag == 2 || tag == 7) {
                    names.add((tag == 2 ? "DNS " : "IP ") + name.get(1));
                }
            }
        } catch (CertificateParsingException e) {
            // An unreadable extension names nothing; the subject below still does.
        }
        if (names.isEmpty()) {
            names.add(certificate.getSubjectX500Principal().getName());
        }
        return names;
    }
}
