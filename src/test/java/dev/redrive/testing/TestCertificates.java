package dev.redrive.testing;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A CA of a test's own, a server certificate it signed for the address 127.0.0.1 only, and a second CA that signed
 * nothing: made in-process at test time (BouncyCastle) and written as PEM into {@code dir}, so no key is ever checked
 * in and no openssl is needed. Connecting to 127.0.0.1 with {@link #ca()} passes verify-full; with {@link #otherCa()}
 * the signature fails; by the name {@code localhost} the host name fails.
 */
public record TestCertificates(Path ca, Path otherCa, Path serverCertificate, Path serverKey) {
    private static final Duration VALIDITY = Duration.ofDays(2);
    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

    public static TestCertificates create(Path dir) {
        try {
            KeyPair caKeys = keyPair();
            X500Name caName = new X500Name("CN=Redrive Test CA");
            X509CertificateHolder ca = sign(caName, caKeys, caName, caKeys.getPublic(), true);
            KeyPair otherKeys = keyPair();
            X500Name otherName = new X500Name("CN=Some Other CA");
            X509CertificateHolder other = sign(otherName, otherKeys, otherName, otherKeys.getPublic(), true);
            KeyPair serverKeys = keyPair();
            X509CertificateHolder server = sign(caName, caKeys, new X500Name("CN=redrive test server"),
                    serverKeys.getPublic(), false);
            TestCertificates made = new TestCertificates(dir.resolve("ca.pem"), dir.resolve("other-ca.pem"),
                    dir.resolve("server.pem"), dir.resolve("server.key"));
            writePem(made.ca(), ca);
            writePem(made.otherCa(), other);
            writePem(made.serverCertificate(), server);
            // PKCS#8, with the curve named inside: the bare SEC1 form is refused by some OpenSSL builds.
            writePem(made.serverKey(), new JcaPKCS8Generator(serverKeys.getPrivate(), null).generate());
            return made;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot make the test certificates", e);
        }
    }

    /** P-256: accepted by PostgreSQL's and Redis's OpenSSL and by the JDK's TLS, and made in milliseconds. */
    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static X509CertificateHolder sign(X500Name issuer, KeyPair issuerKeys, X500Name subject,
                                              PublicKey subjectKey, boolean authority)
            throws IOException, OperatorCreationException {
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
                BigInteger.valueOf(SERIALS.incrementAndGet()), Date.from(now.minus(Duration.ofMinutes(5))),
                Date.from(now.plus(VALIDITY)), subject, subjectKey);
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
        if (authority) {
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } else {
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
        }
        ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate());
        return builder.build(signer);
    }

    private static void writePem(Path file, Object object) throws IOException {
        try (Writer out = Files.newBufferedWriter(file); JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(object);
        }
    }
}
