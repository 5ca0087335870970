package dev.redrive.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A CA of a test's own, a server certificate it signed for the address 127.0.0.1 only, and a second CA that signed
 * nothing: made with openssl at test time in {@code dir}, so no key is ever checked in. Connecting to 127.0.0.1 with
 * {@link #ca()} passes verify-full; with {@link #otherCa()} the signature fails; by the name {@code localhost} the
 * host name fails.
 */
public record TestCertificates(Path ca, Path otherCa, Path serverCertificate, Path serverKey) {

    public static TestCertificates create(Path dir) {
        OsCommands.assumeInstalled("TLS to PostgreSQL and Redis (certificates made at test time)", "openssl");
        Path ca = dir.resolve("ca.pem");
        Path caKey = dir.resolve("ca.key");
        Path otherCa = dir.resolve("other-ca.pem");
        Path certificate = dir.resolve("server.pem");
        Path key = dir.resolve("server.key");
        Path request = dir.resolve("server.csr");
        Path extensions = dir.resolve("server.ext");
        try {
            Files.writeString(extensions, "subjectAltName=IP:127.0.0.1\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Redrive Test CA",
                "-keyout", caKey.toString(), "-out", ca.toString());
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Some Other CA",
                "-keyout", dir.resolve("other-ca.key").toString(), "-out", otherCa.toString());
        openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=redrive test server",
                "-keyout", key.toString(), "-out", request.toString());
        openssl(dir, "x509", "-req", "-in", request.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-days", "2", "-extfile", extensions.toString(), "-out", certificate.toString());
        return new TestCertificates(ca, otherCa, certificate, key);
    }

    private static void openssl(Path dir, String... arguments) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Path log = dir.resolve("openssl.log");
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " failed: " + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run openssl (is it on the PATH?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
