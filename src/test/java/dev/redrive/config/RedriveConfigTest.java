package dev.redrive.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
    void aBadValue_isRefusedWithAMessageNamingTheSetting() {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_URL", "mysql://x")))
                .isInstanceOf(ConfigurationException.class).hasMessageStartingWith("REDRIVE_PG_URL");
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_REDIS_URI", "localhost:6379")))
                .isInstanceOf(ConfigurationException.class).hasMessageStartingWith("REDRIVE_REDIS_URI");
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_NAMESPACE", "x; DROP SCHEMA public")))
                .isInstanceOf(ConfigurationException.class).hasMessageStartingWith("REDRIVE_NAMESPACE");
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
