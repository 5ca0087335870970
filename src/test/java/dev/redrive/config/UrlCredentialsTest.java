package dev.redrive.config;

import dev.redrive.broker.Redis;
import dev.redrive.store.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UrlCredentialsTest {
    private static final String SECRET = "s3cr3t-Pw";

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            jdbc:postgresql://db:5432/app?password=s3cr3t-Pw&user=app              | jdbc:postgresql://db:5432/app?password=***&user=app
            jdbc:postgresql://db:5432/app?user=app&password=s3cr3t-Pw&sslmode=require | jdbc:postgresql://db:5432/app?user=app&password=***&sslmode=require
            jdbc:postgresql://db:5432/app?user=app&PassWord=s3cr3t-Pw              | jdbc:postgresql://db:5432/app?user=app&PassWord=***
            jdbc:postgresql://db/app?sslmode=verify-full&sslpassword=s3cr3t-Pw     | jdbc:postgresql://db/app?sslmode=verify-full&sslpassword=***
            jdbc:postgresql://app:s3cr3t-Pw@db:5432/app                            | jdbc:postgresql://app:***@db:5432/app
            redis://:s3cr3t-Pw@cache:6379                                          | redis://:***@cache:6379
            redis://s3cr3t-Pw@cache:6379                                           | redis://***@cache:6379
            redis://app:s3cr3t-Pw@cache:6379/2                                     | redis://app:***@cache:6379/2
            rediss://app:s3cr3t-Pw@cache:6380                                      | rediss://app:***@cache:6380
            redis://:s3cr3t-Pw@h1:7001,h2:7002,h3:7003                             | redis://:***@h1:7001,h2:7002,h3:7003
            redis://:s3cr3t@Pw@cache:6379                                          | redis://:***@cache:6379
            """)
    void eachFormOfEmbeddedPassword_isMasked(String url, String masked) {
        assertThat(UrlCredentials.mask(url)).isEqualTo(masked);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "jdbc:postgresql://127.0.0.1:5432/postgres",
            "jdbc:postgresql://db:5432/app?user=alice@example.com&sslmode=require",
            "jdbc:postgresql://alice@db:5432/app",
            "redis://127.0.0.1:6379",
            "rediss://cache:6380/1",
            "redis://h1:7001,h2:7002",
            "FATAL: password authentication failed for user \"app\""})
    void textWithoutASecret_isLeftAsItIs(String text) {
        assertThat(UrlCredentials.mask(text)).isEqualTo(text);
    }

    @Test
    void urlsInsideAnErrorLine_areMasked() {
        String line = "PostgreSQL at jdbc:postgresql://db/app?password=" + SECRET + " (user app) is not reachable; "
                + "Redis at redis://:" + SECRET + "@cache:6379 too";

        assertThat(UrlCredentials.mask(line)).isEqualTo("PostgreSQL at jdbc:postgresql://db/app?password=*** (user app) "
                + "is not reachable; Redis at redis://:***@cache:6379 too");
    }

    @Test
    void theConfigDescription_masksPasswordsInsideTheUrls() {
        RedriveConfig config = RedriveConfig.fromEnvironment(Map.of(
                "REDRIVE_PG_URL", "jdbc:postgresql://db/app?user=app&password=" + SECRET,
                "REDRIVE_REDIS_URI", "rediss://app:" + SECRET + "@cache:6380"));

        assertThat(config.toString()).doesNotContain(SECRET).contains("password=***", "rediss://app:***@cache:6380");
    }

    @Test
    void aRefusedUrl_isQuotedWithoutItsPassword() {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_URL", "postgres://app:" + SECRET + "@db/app")))
                .hasMessage("REDRIVE_PG_URL must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db), got: postgres://app:***@db/app");
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_REDIS_URI", "redis://:" + SECRET + "@h1:7001,,h2:7002")))
                .hasMessageEndingWith("got: redis://:***@h1:7001,,h2:7002");
    }

    @Test
    void aJdbcUrlWithUserinfo_isRefusedBeforeTheDriverTakesThePasswordForAHostName() {
        assertThatThrownBy(() -> RedriveConfig.fromEnvironment(Map.of("REDRIVE_PG_URL", "jdbc:postgresql://app:" + SECRET + "@127.0.0.1:1/postgres")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("REDRIVE_PG_URL must not hold user:password@ (the PostgreSQL driver does not read it): give "
                        + "REDRIVE_PG_USER and REDRIVE_PG_PASSWORD, or ?user=...&password=..., got: "
                        + "jdbc:postgresql://app:***@127.0.0.1:1/postgres");
    }

    @Test
    void anUnreachablePostgres_isReportedWithoutThePassword() {
        RedriveConfig config = RedriveConfig.fromEnvironment(Map.of(
                "REDRIVE_PG_URL", "jdbc:postgresql://127.0.0.1:1/postgres?user=app&password=" + SECRET));

        assertThatThrownBy(() -> Database.open(config, 1)).isInstanceOf(ServiceUnavailableException.class)
                .hasMessageStartingWith("PostgreSQL at jdbc:postgresql://127.0.0.1:1/postgres?user=app&password=*** (user postgres) is not reachable: ")
                .hasMessageNotContaining(SECRET);
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://:" + SECRET + "@127.0.0.1:1", "redis://app:" + SECRET + "@127.0.0.1:1",
            "rediss://app:" + SECRET + "@127.0.0.1:1", "redis://:" + SECRET + "@127.0.0.1:1,127.0.0.1:2"})
    void anUnreachableRedis_isReportedWithoutThePassword(String uri) {
        RedriveConfig config = RedriveConfig.fromEnvironment(Map.of("REDRIVE_REDIS_URI", uri));

        assertThatThrownBy(() -> Redis.connect(config)).isInstanceOf(ServiceUnavailableException.class)
                .hasMessageStartingWith("Redis at redis").hasMessageContaining("is not reachable")
                .hasMessageNotContaining(SECRET);
    }
}
