package dev.redrive.console.profile;

import dev.redrive.config.TlsSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

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
