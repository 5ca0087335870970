package dev.redrive.tls;

import dev.redrive.broker.Redis;
import dev.redrive.config.RedriveConfig;
import dev.redrive.config.ServiceUnavailableException;
import dev.redrive.config.TlsSettings;
import dev.redrive.config.TlsSettings.Mode;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.profile.EncryptedFileVault;
import dev.redrive.console.profile.ProfileStore;
import dev.redrive.console.profile.ProfilesViewModel;
import dev.redrive.console.profile.ScriptedMasterPassword;
import dev.redrive.store.Database;
import dev.redrive.testing.TlsServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A PostgreSQL with {@code ssl=on} and a Redis with only a TLS port, both of the test's own, presenting a certificate
 * that a CA made at test time signed for 127.0.0.1: the right CA connects, another CA or another host name is refused
 * with one line that names the certificate's problem.
 */
class TlsVerificationTest {
    private static final String NAMESPACE = "tls_check";

    @RegisterExtension
    static final TlsServers servers = new TlsServers();

    private static RedriveConfig config(String host, Mode mode, Path ca) {
        return new RedriveConfig("jdbc:postgresql://" + host + ":" + servers.postgresPort() + "/postgres", "postgres", "",
                "redis://" + host + ":" + servers.redisPort(), NAMESPACE, new TlsSettings(mode, ca));
    }

    @Test
    void postgresVerifyFullWithTheCaThatSignedItConnectsOverTls() {
        try (Database database = Database.open(config("127.0.0.1", Mode.VERIFY_FULL, servers.certificates().ca()), 1)) {
            assertThat(database.jdbc().queryOne("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
                    row -> row.getBoolean(1))).contains(true);
        }
    }

    @Test
    void postgresSignedByAnotherCaIsRefusedNamingTheSignature() {
        RedriveConfig config = config("127.0.0.1", Mode.VERIFY_FULL, servers.certificates().otherCa());

        assertThatThrownBy(() -> Database.open(config, 1)).isInstanceOf(ServiceUnavailableException.class)
                .hasMessage("PostgreSQL at " + config.pgUrl() + " (user postgres) failed TLS verification: the server's "
                        + "certificate (CN=redrive test server, issued by CN=Redrive Test CA) is not signed by the CA in "
                        + servers.certificates().otherCa());
    }

    @Test
    void postgresByAHostNameTheCertificateDoesNotCarryIsRefusedNamingTheHost() {
        RedriveConfig config = config("localhost", Mode.VERIFY_FULL, servers.certificates().ca());

        assertThatThrownBy(() -> Database.open(config, 1)).isInstanceOf(ServiceUnavailableException.class)
                .hasMessage("PostgreSQL at " + config.pgUrl() + " (user postgres) failed TLS verification: the server's "
                        + "certificate is issued for IP 127.0.0.1, not for the host localhost; connect by one of those "
                        + "names, or use --tls verify-ca");
    }

    @Test
    void postgresVerifyCaChecksTheSignatureButNotTheHostName() {
        try (Database database = Database.open(config("localhost", Mode.VERIFY_CA, servers.certificates().ca()), 1)) {
            assertThat(database.jdbc().queryLong("SELECT 1")).isEqualTo(1);
        }
        assertThatThrownBy(() -> Database.open(config("localhost", Mode.VERIFY_CA, servers.certificates().otherCa()), 1))
                .hasMessageContaining("is not signed by the CA in " + servers.certificates().otherCa());
    }

    @Test
    void withoutACaFileOnlyTheCasTheJvmTrustsAreTrusted() {
        RedriveConfig config = config("127.0.0.1", Mode.VERIFY_FULL, null);

        assertThatThrownBy(() -> Database.open(config, 1))
                .hasMessageEndingWith("is not signed by a CA the JVM trusts (give the servers' CA with --tls-ca)");
        assertThatThrownBy(() -> Redis.connect(config))
                .hasMessageEndingWith("is not signed by a CA the JVM trusts (give the servers' CA with --tls-ca)");
    }

    @Test
    void requireEncryptsWithoutVerifying() {
        try (Database database = Database.open(config("localhost", Mode.REQUIRE, null), 1);
             Redis tlsRedis = Redis.connect(config("localhost", Mode.REQUIRE, null))) {
            assertThat(database.jdbc().queryOne("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
                    row -> row.getBoolean(1))).contains(true);
            assertThat(tlsRedis.sync().ping()).isEqualTo("PONG");
        }
    }

    @Test
    void redisVerifyFullWithTheCaThatSignedItConnects() {
        try (Redis tlsRedis = Redis.connect(config("127.0.0.1", Mode.VERIFY_FULL, servers.certificates().ca()))) {
            assertThat(tlsRedis.sync().ping()).isEqualTo("PONG");
        }
    }

    @Test
    void redisSignedByAnotherCaIsRefusedNamingTheSignature() {
        RedriveConfig config = config("127.0.0.1", Mode.VERIFY_FULL, servers.certificates().otherCa());

        assertThatThrownBy(() -> Redis.connect(config)).isInstanceOf(ServiceUnavailableException.class)
                .hasMessage("Redis at " + config.redisUri() + " failed TLS verification: the server's certificate "
                        + "(CN=redrive test server, issued by CN=Redrive Test CA) is not signed by the CA in "
                        + servers.certificates().otherCa());
    }

    @Test
    void redisByAHostNameTheCertificateDoesNotCarryIsRefusedNamingTheHost() {
        RedriveConfig config = config("localhost", Mode.VERIFY_FULL, servers.certificates().ca());

        assertThatThrownBy(() -> Redis.connect(config)).isInstanceOf(ServiceUnavailableException.class)
                .hasMessage("Redis at " + config.redisUri() + " failed TLS verification: the server's certificate is "
                        + "issued for IP 127.0.0.1, not for the host localhost; connect by one of those names, or use "
                        + "--tls verify-ca");
        try (Redis tlsRedis = Redis.connect(config("localhost", Mode.VERIFY_CA, servers.certificates().ca()))) {
            assertThat(tlsRedis.sync().ping()).isEqualTo("PONG");
        }
    }

    @Test
    void theConsolesConnectionTestShowsTheCertificateProblemOfEachServer(@TempDir Path profiles) {
        ProfilesViewModel model = new ProfilesViewModel(new ProfileStore(profiles), new EncryptedFileVault(profiles, ScriptedMasterPassword.answering()),
                UiExecutor.inline(), (profile, password) -> { });
        model.pgUrlProperty().set("jdbc:postgresql://127.0.0.1:" + servers.postgresPort() + "/postgres");
        model.redisUriProperty().set("redis://127.0.0.1:" + servers.redisPort());
        model.namespaceProperty().set(NAMESPACE);
        model.tlsProperty().set(true);
        model.tlsVerifyProperty().set("verify-full");
        model.tlsCaFileProperty().set(servers.certificates().otherCa().toString());

        model.testConnection();

        String problem = "failed TLS verification: the server's certificate (CN=redrive test server, issued by "
                + "CN=Redrive Test CA) is not signed by the CA in " + servers.certificates().otherCa();
        assertThat(model.checkSteps()).extracting(step -> step.name() + ": " + step.detail()).containsExactly(
                "PostgreSQL: PostgreSQL at jdbc:postgresql://127.0.0.1:" + servers.postgresPort() + "/postgres (user postgres) "
                        + problem,
                "Redis: Redis at redis://127.0.0.1:" + servers.redisPort() + " " + problem);
        assertThat(model.messageProperty().get()).startsWith("PostgreSQL failed: PostgreSQL at").endsWith(problem);
    }
}
