package dev.redrive.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedriveConfigTest {
    @Test
    void withoutVariables_theLocalDefaultsApply() {
        RedriveConfig config = RedriveConfig.fromEnvironment(Map.of());

        assertThat(config.pgUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/postgres");
        assertThat(config.redisUri()).isEqualTo("redis://127.0.0.1:6379");
        assertThat(config.namespace()).isEqualTo("redrive");
    }

    @Test
    void aPasswordFile_givesItsFirstLine_andAPasswordGivenTwiceIsRefused(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("pg-password"), "s3cr3t-Pw\nignored\n");

        assertThat(RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_PASSWORD_FILE", file.toString())).pgPassword())
                .isEqualTo("s3cr3t-Pw");
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_PASSWORD_FILE", file.toString(),
                "REDRIVE_PG_PASSWORD", "other"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("given twice");
    }

    @Test
    void aBadValue_isRefusedWithAMessageNamingTheSetting() {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_URL", "mysql://x")))
                .isInstanceOf(ConfigurationException.class).hasMessageStartingWith("REDRIVE_PG_URL");
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_REDIS_URI", "localhost:6379")))
                .isInstanceOf(ConfigurationException.class).hasMessageStartingWith("REDRIVE_REDIS_URI");
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_NAMESPACE", "x; DROP SCHEMA public")))
                .isInstanceOf(ConfigurationException.class).hasMessageStartingWith("REDRIVE_NAMESPACE");
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003", "rediss://a.example:7001,b.example",
            "redis://:s3cret@10.0.0.1:7001,10.0.0.2:7001"})
    void theSeedNodesOfACluster_areAccepted(String uri) {
        assertThat(RedriveConfig.fromEnvironment(Map.of("REDRIVE_REDIS_URI", uri)).redisUri()).isEqualTo(uri);
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://127.0.0.1:7001,", "redis://127.0.0.1:7001,,127.0.0.1:7002", "redis://,"})
    void aSeedListWithAnEmptyNode_isRefused(String uri) {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_REDIS_URI", uri)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("REDRIVE_REDIS_URI must look like redis://host:port (or rediss:// for TLS; several cluster "
                        + "nodes as redis://host:port,host:port), got: " + uri);
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis//:PASSWORD@cache:6379", "redis:/:PASSWORD@cache:6379", "redis:PASSWORD@cache:6379",
            "redis://:PASS WORD@cache:6379", "://:PASSWORD@cache:6379", "redis://:PASSWORD@cache:6379 trailing",
            "redis://:PASSWORD@[cache:6379", "PASSWORD"})
    void aRedisUriThatDoesNotParse_isNeverEchoed_theLineSaysWhatIsWrong(String uri) {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_REDIS_URI", uri)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("REDRIVE_REDIS_URI ")
                .hasMessageContaining("the value is not shown")
                .hasMessageNotContaining("PASSWORD").hasMessageNotContaining("PASS WORD");
    }

    @Test
    void aRedisUriWithoutItsColonSlashSlash_isNamedAsSuch() {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_REDIS_URI", "redis//:PASSWORD@cache:6379")))
                .hasMessage("REDRIVE_REDIS_URI is not a redis:// or rediss:// URI: missing '://' after the scheme (the "
                        + "value is not shown: it may hold a password)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgres//app:PASSWORD@db/app", "jdbc:postgresql:/app:PASSWORD@db/app",
            "jdbc:postgresql://db/app?password=PASS WORD", "postgres//app:PASSWORD@db"})
    void aJdbcUrlThatDoesNotParse_isNeverEchoed(String url) {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_URL", url)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("REDRIVE_PG_URL ")
                .hasMessageNotContaining("PASSWORD").hasMessageNotContaining("PASS WORD");
    }

    @ParameterizedTest
    @ValueSource(strings = {"public", "pg_catalog", "pg_toast", "pg_temp_1", "information_schema"})
    void aPostgresSystemOrSharedSchema_isRefusedAsNamespace(String namespace) {
        assertThatThrownBy(() -> RedriveConfig.defaults().withNamespace(namespace))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("REDRIVE_NAMESPACE must not be " + namespace + ": pg_*, information_schema and public are "
                        + "PostgreSQL's system and shared schemas, not Redrive's to fill or drop; expected a name of its "
                        + "own, e.g. redrive");
    }

    @ParameterizedTest
    @ValueSource(strings = {"publications", "my_public", "pgbouncer_jobs", "information"})
    void aNamespaceThatOnlyLooksLikeOne_isAccepted(String namespace) {
        assertThat(RedriveConfig.defaults().withNamespace(namespace).namespace()).isEqualTo(namespace);
    }

    @Test
    void thePassword_neverAppearsInTheDescription() {
        RedriveConfig config = RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_PASSWORD", "s3cret"));

        assertThat(config.toString()).doesNotContain("s3cret");
    }
}
