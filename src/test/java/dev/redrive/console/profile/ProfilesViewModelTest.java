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

class ProfilesViewModelTest {
    @RegisterExtension
    static final TestNamespace ns = new TestNamespace();

    @TempDir
    Path directory;

    private final List<String> connected = new ArrayList<>();

    private ProfilesViewModel model() {
        ProfilesViewModel model = new ProfilesViewModel(new ProfileStore(directory), new PasswordVault(directory),
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
}
