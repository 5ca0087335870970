package dev.redrive.config;

import dev.redrive.broker.Redis;
import dev.redrive.config.TlsSettings.Mode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TlsSettingsTest {
    @TempDir
    Path dir;

    @Test
    void withoutSettings_theUrlsDecide() {
        assertThat(RedriveConfig.defaults().tls()).isEqualTo(TlsSettings.AS_URLS);
        assertThat(new RedriveConfig("jdbc:postgresql://db/app?sslmode=verify-full", "u", "", "rediss://cache:6379", "ns")
                .tls().enabled()).isFalse();
    }

    @Test
    void theVariablesAreReadInAnyCase_andACaFileAloneMeansVerifyFull() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "");

        assertThat(RedriveConfig.fromEnvironment(Map.of("REDRIVE_TLS", "Verify-CA")).tls())
                .isEqualTo(new TlsSettings(Mode.VERIFY_CA, null));
        assertThat(RedriveConfig.fromEnvironment(Map.of("REDRIVE_TLS_CA", ca.toString())).tls())
                .isEqualTo(new TlsSettings(Mode.VERIFY_FULL, ca));
    }

    @Test
    void aModeThatDoesNotExist_isRefusedNamingTheChoices() {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_TLS", "strict")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("REDRIVE_TLS (--tls) must be one of require, verify-ca, verify-full, got: strict");
    }

    @Test
    void aCaFileThatIsNotThere_isRefused() {
        Path missing = dir.resolve("missing.pem");

        assertThatThrownBy(() -> TlsSettings.parse("verify-full", missing.toString()))
                .hasMessage("REDRIVE_TLS_CA (--tls-ca) cannot be read: " + missing
                        + "; expected a PEM file of the CA certificates that sign the servers' certificates");
    }

    @Test
    void aCaFileWithRequire_isRefused_sinceRequireVerifiesNothing() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "");

        assertThatThrownBy(() -> TlsSettings.parse("require", ca.toString()))
                .hasMessageStartingWith("REDRIVE_TLS_CA (--tls-ca) needs REDRIVE_TLS (--tls) verify-ca or verify-full");
    }

    @Test
    void aJdbcUrlThatSetsTlsOtherwise_isRefused_sinceTheDriverWouldLetTheUrlWin() {
        assertThatThrownBy(() -> new RedriveConfig("jdbc:postgresql://db/app?sslmode=require", "u", "",
                "redis://cache", "ns", new TlsSettings(Mode.VERIFY_FULL, null)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("REDRIVE_PG_URL sets sslmode=require and REDRIVE_TLS (--tls) says verify-full: give TLS "
                        + "in one place, expected the URL without sslmode=, got: jdbc:postgresql://db/app?sslmode=require");
        assertThat(new RedriveConfig("jdbc:postgresql://db/app?sslmode=verify-full", "u", "", "redis://cache", "ns",
                new TlsSettings(Mode.VERIFY_FULL, null)).tls().mode()).isEqualTo(Mode.VERIFY_FULL);
    }

    @Test
    void aCaFileWithoutCertificates_isNamedWhenConnecting() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.pem"), "not a certificate\n");
        RedriveConfig config = RedriveConfig.defaults().withTls(new TlsSettings(Mode.VERIFY_FULL, empty));

        assertThatThrownBy(() -> Redis.connect(config)).isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("REDRIVE_TLS_CA (--tls-ca) " + empty);
    }
}
