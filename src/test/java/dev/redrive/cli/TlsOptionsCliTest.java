package dev.redrive.cli;

import dev.redrive.testing.TlsServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --tls} and {@code --tls-ca} against a TLS PostgreSQL and Redis of the test's own, as an operator types them. */
class TlsOptionsCliTest {
    @RegisterExtension
    static final TlsServers servers = new TlsServers();

    private static CliRun redrive(String host, String... args) {
        String[] connection = {"--pg-url", "jdbc:postgresql://" + host + ":" + servers.postgresPort() + "/postgres",
                "--redis-uri", "redis://" + host + ":" + servers.redisPort(), "-n", "tls_cli"};
        String[] all = new String[connection.length + args.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(connection, 0, all, args.length, connection.length);
        return CliRun.of(all);
    }

    @Test
    void withTheServersCa_theCommandsWork() {
        CliRun migrate = redrive("127.0.0.1", "migrate", "--tls-ca", servers.certificates().ca().toString());
        CliRun list = redrive("127.0.0.1", "dlq", "list", "--tls", "verify-full", "--tls-ca", servers.certificates().ca().toString());

        assertThat(migrate.exit()).as(migrate.err()).isZero();
        assertThat(list.exit()).as(list.err()).isZero();
    }

    @Test
    void anotherCa_isRefusedInOneLineNamingTheCertificatesProblem() {
        CliRun run = redrive("127.0.0.1", "migrate", "--tls-ca", servers.certificates().otherCa().toString());

        assertThat(run.exit()).isEqualTo(4);
        assertThat(run.err()).isEqualTo("migrate: PostgreSQL at jdbc:postgresql://127.0.0.1:" + servers.postgresPort()
                + "/postgres (user postgres) failed TLS verification: the server's certificate (CN=redrive test server, "
                + "issued by CN=Redrive Test CA) is not signed by the CA in " + servers.certificates().otherCa()
                + System.lineSeparator());
    }

    @Test
    void aHostNameTheCertificateDoesNotCarry_isRefusedInOneLineNamingTheHost() {
        CliRun run = redrive("localhost", "migrate", "--tls", "verify-full", "--tls-ca", servers.certificates().ca().toString());

        assertThat(run.exit()).isEqualTo(4);
        assertThat(run.err()).isEqualTo("migrate: PostgreSQL at jdbc:postgresql://localhost:" + servers.postgresPort()
                + "/postgres (user postgres) failed TLS verification: the server's certificate is issued for "
                + "IP 127.0.0.1, not for the host localhost; connect by one of those names, or use --tls verify-ca"
                + System.lineSeparator());
    }

    @Test
    void aModeThatDoesNotExist_isBadInput() {
        CliRun run = redrive("127.0.0.1", "migrate", "--tls", "strict");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("migrate: --tls must be one of require, verify-ca, verify-full, got: strict");
    }
}
