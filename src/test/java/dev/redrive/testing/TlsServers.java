package dev.redrive.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A PostgreSQL with {@code ssl=on} and a Redis with only a TLS port, both of a test class's own, presenting the server
 * certificate of {@link TestCertificates} made for the class. Register it as a static field:
 * {@code @RegisterExtension static final TlsServers servers = new TlsServers();}
 */
public final class TlsServers implements BeforeAllCallback, AfterAllCallback {
    private Path dir;
    private TestCertificates certificates;
    private PostgresServerProcess postgres;
    private RedisServerProcess redis;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("redrive-tls-");
        certificates = TestCertificates.create(dir);
        postgres = PostgresServerProcess.startWithTls(certificates);
        redis = RedisServerProcess.startWithTls(certificates);
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException, IOException {
        try {
            if (redis != null) {
                redis.close();
            }
            if (postgres != null) {
                postgres.close();
            }
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }

    public TestCertificates certificates() {
        return certificates;
    }

    public int postgresPort() {
        return postgres.port();
    }

    public int redisPort() {
        return redis.port();
    }
}
