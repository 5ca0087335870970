package dev.redrive.console.profile;

import dev.redrive.config.TlsSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProfileStoreTest {
    @TempDir
    Path directory;

    @Test
    void profilesAreSavedWithoutPasswords() throws Exception {
        ProfileStore store = new ProfileStore(directory);
        ConnectionProfile staging = new ConnectionProfile("staging", "jdbc:postgresql://db:5432/app", "triage",
                "redis://cache:6379", "payments", true, "https://trace.example/{trace_id}", "ana");

        store.save(staging);

        assertThat(new ProfileStore(directory).find("staging")).contains(staging);
        assertThat(Files.readString(store.file())).doesNotContain("s3cret-pw");
        store.delete("staging");
        assertThat(store.list()).isEmpty();
    }

    @Test
    void aProfileFileOfAnEarlierVersion_loads_withoutSpanTemplateOrPrometheus_andTheNewFieldsAreKept() throws Exception {
        Files.writeString(directory.resolve("profiles.json"), """
                [{"name":"old","pg_url":"jdbc:postgresql://db:5432/app","pg_user":"triage","redis_uri":"redis://cache:6379",
                  "namespace":"payments","tls":false,"tracer_url_template":"https://trace.example/{trace_id}",
                  "operator":"ana","lookup_endpoints":{}}]
                """);
        ProfileStore store = new ProfileStore(directory);
        ConnectionProfile old = store.find("old").orElseThrow();
        assertThat(old.tracerUrlTemplate()).isEqualTo("https://trace.example/{trace_id}");
        assertThat(old.tracerSpanUrlTemplate()).isEmpty();
        assertThat(old.prometheusUrl()).isEmpty();

        ConnectionProfile extended = new ConnectionProfile("new", old.pgUrl(), old.pgUser(), old.redisUri(),
                old.namespace(), false, "", "", old.tracerUrlTemplate(), "", Map.of(),
                "https://trace.example/{trace_id}?uiFind={span_id}", "http://prometheus:9090");
        store.save(extended);
        assertThat(new ProfileStore(directory).find("new")).contains(extended);
    }

    @Test
    void aPrometheusUrlThatIsNoHttpAddress_isNamedInOneLine() {
        assertThatThrownBy(() -> new ConnectionProfile("p", "jdbc:postgresql://db:5432/app", "u", "redis://c:6379", "ns",
                false, "", "", "", "", Map.of(), "", "prometheus:9090"))
                .hasMessage("the Prometheus URL must be the server's http:// or https:// address, such as "
                        + "http://prometheus:9090, got 'prometheus:9090'");
    }

    @Test
    void tlsOfAProfileSavedBeforeVerificationExistedMeansRequire() {
        ConnectionProfile profile = new ConnectionProfile("prod", "jdbc:postgresql://db:5432/app", "triage",
                "redis://cache:6379", "payments", true, "", "");

        assertThat(profile.toConfig("pw").tls()).isEqualTo(new TlsSettings(TlsSettings.Mode.REQUIRE, null));
        assertThat(profile.toConfig("pw").pgUrl()).isEqualTo("jdbc:postgresql://db:5432/app");
    }

    @Test
    void tlsVerificationAndCaFileAreSavedAndReachTheConfiguration() throws Exception {
        Path ca = Files.writeString(directory.resolve("ca.pem"), "");
        ConnectionProfile profile = new ConnectionProfile("prod", "jdbc:postgresql://db:5432/app", "triage",
                "redis://cache:6379", "payments", false, "", "").withTls("verify-ca", ca.toString());
        ProfileStore store = new ProfileStore(directory);

        store.save(profile);

        assertThat(store.find("prod")).contains(profile);
        assertThat(store.find("prod").orElseThrow().toConfig("pw").tls())
                .isEqualTo(new TlsSettings(TlsSettings.Mode.VERIFY_CA, ca));
    }

    @Test
    void theConfigFolderFollowsThePlatform() {
        assertThat(ConfigDirectory.resolve("Linux", "/home/ana", Map.of())).isEqualTo(Path.of("/home/ana/.config/redrive"));
        assertThat(ConfigDirectory.resolve("Linux", "/home/ana", Map.of("XDG_CONFIG_HOME", "/cfg")))
                .isEqualTo(Path.of("/cfg/redrive"));
        assertThat(ConfigDirectory.resolve("Mac OS X", "/Users/ana", Map.of()))
                .isEqualTo(Path.of("/Users/ana/Library/Application Support/Redrive"));
    }
}
