package dev.redrive.console.profile;

import dev.redrive.config.ConfigurationException;
import dev.redrive.config.TlsSettings;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.health.ConnectionCheck;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The connection-profile editor: the saved profiles, one profile's fields, a step-by-step connection test and the
 * command to connect with it. Passwords go to the {@link PasswordVault} only when the operator asks to remember them.
 */
public final class ProfilesViewModel {
    private final ProfileStore store;
    private final PasswordVault vault;
    private final UiExecutor executor;
    private final BiConsumer<ConnectionProfile, String> connector;

    private final ObservableList<ConnectionProfile> profiles = FXCollections.observableArrayList();
    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty pgUrl = new SimpleStringProperty("");
    private final StringProperty pgUser = new SimpleStringProperty("");
    private final StringProperty password = new SimpleStringProperty("");
    private final BooleanProperty rememberPassword = new SimpleBooleanProperty();
    private final StringProperty redisUri = new SimpleStringProperty("");
    private final StringProperty namespace = new SimpleStringProperty("");
    private final BooleanProperty tls = new SimpleBooleanProperty();
    private final StringProperty tlsVerify = new SimpleStringProperty("");
    private final StringProperty tlsCaFile = new SimpleStringProperty("");
    private final StringProperty tracerUrlTemplate = new SimpleStringProperty("");
    private final StringProperty tracerSpanUrlTemplate = new SimpleStringProperty("");
    private final StringProperty prometheusUrl = new SimpleStringProperty("");
    private final StringProperty operator = new SimpleStringProperty("");
    private final StringProperty lookupEndpoints = new SimpleStringProperty("");
    private final ObservableList<ConnectionCheck.Step> checkSteps = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper checking = new ReadOnlyBooleanWrapper();

    public ProfilesViewModel(ProfileStore store, PasswordVault vault, UiExecutor executor,
                             BiConsumer<ConnectionProfile, String> connector) {
        this.store = store;
        this.vault = vault;
        this.executor = executor;
        this.connector = connector;
        newProfile();
    }

    public void reload() {
        executor.submit("Reading connection profiles from " + store.file(), store::list, profiles::setAll);
    }

    /** Clears the form to the defaults for a new profile. */
    public void newProfile() {
        edit(new ConnectionProfile("new profile", "jdbc:postgresql://127.0.0.1:5432/postgres", "postgres",
                "redis://127.0.0.1:6379", "redrive", false, TlsSettings.Mode.VERIFY_FULL.option(), "", "", "",
                Map.of(), "", ""), Optional.empty());
    }

    public void select(ConnectionProfile profile) {
        if (profile == null) {
            return;
        }
        executor.submit("Reading the remembered password of " + profile.name(), () -> rememberedPassword(profile.name()),
                remembered -> edit(profile, remembered));
    }

    /** A vault left locked (the master password declined) remembers nothing for now: the password is typed instead. */
    private Optional<String> rememberedPassword(String profileName) {
        try {
            return vault.password(profileName);
        } catch (VaultLockedException e) {
            return Optional.empty();
        }
    }

    private void edit(ConnectionProfile profile, Optional<String> remembered) {
        name.set(profile.name());
        pgUrl.set(profile.pgUrl());
        pgUser.set(profile.pgUser());
        redisUri.set(profile.redisUri());
        namespace.set(profile.namespace());
        tls.set(profile.tls());
        tlsVerify.set(profile.tlsVerify());
        tlsCaFile.set(profile.tlsCaFile());
        tracerUrlTemplate.set(profile.tracerUrlTemplate());
        tracerSpanUrlTemplate.set(profile.tracerSpanUrlTemplate());
        prometheusUrl.set(profile.prometheusUrl());
        operator.set(profile.operator());
        lookupEndpoints.set(profile.lookupEndpointsText());
        password.set(remembered.orElse(""));
        rememberPassword.set(remembered.isPresent());
        checkSteps.clear();
        message.set("");
    }

    /** The profile the form describes, or empty with the reason in {@link #messageProperty()}. */
    public Optional<ConnectionProfile> formProfile() {
        try {
            ConnectionProfile profile = new ConnectionProfile(name.get(), pgUrl.get(), pgUser.get(), redisUri.get(),
                    namespace.get(), tls.get(), tlsVerify.get(), tlsCaFile.get(), tracerUrlTemplate.get(), operator.get(),
                    ConnectionProfile.parseLookupEndpoints(lookupEndpoints.get()), tracerSpanUrlTemplate.get(),
                    prometheusUrl.get());
            profile.toConfig(password.get());
            return Optional.of(profile);
        } catch (ConfigurationException e) {
            message.set(e.getMessage());
            return Optional.empty();
        }
    }

    public void save() {
        formProfile().filter(this::nameDiffersByMoreThanCase).ifPresent(profile -> {
            String secret = password.get();
            boolean remember = rememberPassword.get();
            executor.submit("Saving profile " + profile.name(), () -> {
                store.save(profile);
                if (remember) {
                    vault.remember(profile.name(), secret);
                } else {
                    vault.forget(profile.name());
                }
                return store.list();
            }, saved -> {
                profiles.setAll(saved);
                message.set("Saved " + profile.name() + (remember ? " (password remembered in " + vault.place() + ")"
                        : " (password not stored: asked at connect)"));
            });
        });
    }

    private boolean nameDiffersByMoreThanCase(ConnectionProfile profile) {
        try {
            ProfileStore.checkName(profiles, profile.name());
            return true;
        } catch (ConfigurationException e) {
            message.set(e.getMessage());
            return false;
        }
    }

    public void delete() {
        String profileName = name.get();
        executor.submit("Deleting profile " + profileName, () -> {
            store.delete(profileName);
            vault.forget(profileName);
            return store.list();
        }, remaining -> {
            profiles.setAll(remaining);
            message.set("Deleted " + profileName);
            newProfile();
        });
    }

    /** Checks PostgreSQL, the schema and Redis in turn; each step says what it found. */
    public void testConnection() {
        formProfile().ifPresent(profile -> {
            checking.set(true);
            checkSteps.clear();
            message.set("Testing " + profile.name() + "…");
            executor.submit("Testing connection " + profile.name(),
                    () -> ConnectionCheck.run(profile.toConfig(password.get())),
                    steps -> {
                        checking.set(false);
                        checkSteps.setAll(steps);
                        message.set(summary(steps));
                    },
                    failure -> {
                        checking.set(false);
                        message.set(failure.message());
                    });
        });
    }

    static String summary(List<ConnectionCheck.Step> steps) {
        return steps.stream().filter(step -> !step.passed()).findFirst()
                .map(step -> step.name() + " failed: " + step.detail())
                .orElse("All checks passed");
    }

    public void connect() {
        formProfile().ifPresent(profile -> connector.accept(profile, password.get()));
    }

    public ObservableList<ConnectionProfile> profiles() { return profiles; }
    public StringProperty nameProperty() { return name; }
    public StringProperty pgUrlProperty() { return pgUrl; }
    public StringProperty pgUserProperty() { return pgUser; }
    public StringProperty passwordProperty() { return password; }
    public BooleanProperty rememberPasswordProperty() { return rememberPassword; }
    public StringProperty redisUriProperty() { return redisUri; }
    public StringProperty namespaceProperty() { return namespace; }
    public BooleanProperty tlsProperty() { return tls; }
    public StringProperty tlsVerifyProperty() { return tlsVerify; }
    public StringProperty tlsCaFileProperty() { return tlsCaFile; }

    /** The verification modes a profile may choose, as typed in {@code --tls}. */
    public static List<String> tlsVerifyChoices() {
        return Arrays.stream(TlsSettings.Mode.values()).filter(TlsSettings.Mode::enabled)
                .map(TlsSettings.Mode::option).toList();
    }
    public StringProperty tracerUrlTemplateProperty() { return tracerUrlTemplate; }
    public StringProperty tracerSpanUrlTemplateProperty() { return tracerSpanUrlTemplate; }
    public StringProperty prometheusUrlProperty() { return prometheusUrl; }
    public StringProperty operatorProperty() { return operator; }
    public StringProperty lookupEndpointsProperty() { return lookupEndpoints; }
    public ObservableList<ConnectionCheck.Step> checkSteps() { return checkSteps; }
    public ReadOnlyStringProperty messageProperty() { return message.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty checkingProperty() { return checking.getReadOnlyProperty(); }
}
