package dev.redrive.console.profile;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.health.ConnectionCheck;
import dev.redrive.testing.TestNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProfilesViewModelTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @TempDir
    Path directory;

    private final List<String> connected = new ArrayList<>();

    private ProfilesViewModel model() {
        ProfilesViewModel model = new ProfilesViewModel(new ProfileStore(directory), new EncryptedFileVault(directory, ScriptedMasterPassword.answering()),
                UiExecutor.inline(), (profile, password) -> connected.add(profile.name()));
        model.nameProperty().set("test");
        model.pgUrlProperty().set(ns.config().pgUrl());
        model.pgUserProperty().set(ns.config().pgUser());
        model.passwordProperty().set(ns.config().pgPassword());
        model.redisUriProperty().set(ns.config().redisUri());
        model.namespaceProperty().set(ns.name());
        return model;
    }

    @Test
    void testConnectionPassesEveryStepOnAMigratedNamespace() {
        ProfilesViewModel model = model();

        model.testConnection();

        assertThat(model.checkSteps()).extracting(ConnectionCheck.Step::name)
                .containsExactly("PostgreSQL", "Schema", "Redis");
        assertThat(model.checkSteps()).allMatch(ConnectionCheck.Step::passed);
        assertThat(model.messageProperty().get()).isEqualTo("All checks passed");
    }

    @Test
    void testConnectionNamesExactlyWhatFailed() {
        ProfilesViewModel model = model();
        model.redisUriProperty().set("redis://127.0.0.1:1");
        model.namespaceProperty().set("not_migrated_here");

        model.testConnection();

        assertThat(model.checkSteps()).extracting(step -> step.name() + "=" + step.passed())
                .containsExactly("PostgreSQL=true", "Schema=false", "Redis=false");
        assertThat(model.messageProperty().get())
                .startsWith("Schema failed: schema not_migrated_here is missing or not migrated");
        assertThat(model.checkSteps().get(2).detail()).contains("redis://127.0.0.1:1");
    }

    @Test
    void testConnectionNeverShowsAPasswordTheUrlsCarry() {
        // The server may trust this connection and ignore the password; it must then be the real one.
        String secret = ns.config().pgPassword().isEmpty() ? "s3cr3t-Pw" : ns.config().pgPassword();
        ProfilesViewModel model = model();
        model.pgUrlProperty().set(ns.config().pgUrl() + (ns.config().pgUrl().contains("?") ? "&" : "?") + "password=" + secret);
        model.redisUriProperty().set("redis://:" + secret + "@127.0.0.1:1");

        model.testConnection();

        assertThat(model.checkSteps()).extracting(step -> step.name() + "=" + step.passed())
                .containsExactly("PostgreSQL=true", "Schema=true", "Redis=false");
        assertThat(model.checkSteps().get(0).detail()).contains("password=***");
        assertThat(model.checkSteps().get(2).detail()).contains("redis://:***@127.0.0.1:1");
        assertThat(model.checkSteps()).extracting(ConnectionCheck.Step::detail).noneMatch(detail -> detail.contains(secret));
        assertThat(model.messageProperty().get()).startsWith("Redis failed: ").doesNotContain(secret);
    }

    @Test
    void aBadFieldIsNamedBeforeAnythingIsTried() {
        ProfilesViewModel model = model();
        model.pgUrlProperty().set("postgres://nope");

        model.testConnection();

        assertThat(model.checkSteps()).isEmpty();
        assertThat(model.messageProperty().get()).startsWith("REDRIVE_PG_URL must be a PostgreSQL JDBC URL");
    }

    @Test
    void savedProfilesAreListedAndConnectHandsThemOver() {
        ProfilesViewModel model = model();

        model.save();
        model.connect();

        assertThat(model.profiles()).extracting(ConnectionProfile::name).containsExactly("test");
        assertThat(connected).containsExactly("test");
    }

    @Test
    void aNameThatDiffersFromAnotherOnlyInCase_isRefusedWithTheOtherNamed_andNothingIsSaved() {
        ProfilesViewModel model = model();
        model.save();

        model.nameProperty().set("TEST");
        model.save();

        assertThat(model.messageProperty().get()).isEqualTo("a profile named test exists, and TEST differs from it only "
                + "in case; expected another name, or test itself to change it");
        assertThat(model.profiles()).extracting(ConnectionProfile::name).containsExactly("test");
        assertThat(new ProfileStore(directory).list()).extracting(ConnectionProfile::name).containsExactly("test");
        assertThatThrownBy(() -> new ProfileStore(directory).save(new ConnectionProfile("Test",
                ns.config().pgUrl(), "u", ns.config().redisUri(), ns.name(), false, "", "")))
                .hasMessageStartingWith("a profile named test exists, and Test differs from it only in case");
    }
}
