package dev.redrive.config;

import org.junit.jupiter.api.Test;

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

    @Test
    void thePassword_neverAppearsInTheDescription() {
        RedriveConfig config = RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_PASSWORD", "s3cret"));

        assertThat(config.toString()).doesNotContain("s3cret");
    }
}
