package dev.redrive.console.main;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.concurrent.UiExecutor.TaskFailure;
import dev.redrive.console.profile.ConnectionProfile;
import dev.redrive.services.ToolEndpointDiscovery;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Clock;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The main window's state: the open session, what is running, the last failure (shown without blocking, naming what
 * failed) and the theme.
 */
public final class MainWindowViewModel {
    private static final int ERRORS_KEPT = 50;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final UiExecutor executor;
    private final Clock clock;
    private final ReadOnlyObjectWrapper<ConsoleSession> session = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper connection = new ReadOnlyStringWrapper("Not connected");
    private final ReadOnlyStringWrapper connectionDetails = new ReadOnlyStringWrapper("Not connected");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("Ready");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper connecting = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final BooleanProperty darkTheme = new SimpleBooleanProperty();
    private final ObservableList<String> recentErrors = FXCollections.observableArrayList();
    private ConnectionProfile lastProfile;
    private String lastPassword;
    private final ToolEndpointDiscovery discovery;

    /** {@code discovery} finds tools that run beside the namespace a session connects to, for their look-ups. */
    public MainWindowViewModel(UiExecutor executor, Clock clock, ToolEndpointDiscovery discovery) {
        this.executor = executor;
        this.clock = clock;
        this.discovery = discovery;
        executor.onFailure(this::showFailure);
        busy.bind(executor.runningProperty().greaterThan(0));
    }

    /** Opens a session off the FX thread; the current one stays until the new one is connected. */
    public void connect(ConnectionProfile profile, String password) {
        lastProfile = profile;
        lastPassword = password;
        connecting.set(true);
        status.set("Connecting to " + profile.name() + "…");
        executor.submit("Connecting to " + profile.name(),
                () -> ConsoleSession.open(profile, profile.toConfig(password), clock, discovery),
                opened -> {
                    connecting.set(false);
                    ConsoleSession previous = session.get();
                    session.set(opened);
                    connection.set(opened.describe());
                    connectionDetails.set(opened.details());
                    status.set("Connected to " + profile.name() + (opened.access().canDecide() ? "" : " (read-only)"));
                    error.set(null);
                    if (previous != null) {
                        executor.submit("Closing the previous connection", () -> {
                            previous.close();
                            return previous;
                        }, closed -> { });
                    }
                },
                failure -> {
                    connecting.set(false);
                    status.set("Not connected");
                    showFailure(failure);
                });
    }

    /** Tries the last connection again (after a failed connect). */
    public void retryConnect() {
        if (lastProfile != null && !connecting.get()) {
            connect(lastProfile, lastPassword);
        }
    }

    public void showFailure(TaskFailure failure) {
        String message = failure.message();
        error.set(message);
        recentErrors.add(0, LocalTime.now(clock.withZone(ZoneId.systemDefault())).truncatedTo(ChronoUnit.SECONDS)
                .format(TIME) + "  " + message);
        if (recentErrors.size() > ERRORS_KEPT) {
            recentErrors.remove(ERRORS_KEPT, recentErrors.size());
        }
    }

    public void showStatus(String text) {
        status.set(text);
    }

    public void dismissError() {
        error.set(null);
    }

    public void close() {
        ConsoleSession current = session.get();
        session.set(null);
        if (current != null) {
            current.close();
        }
    }

    public UiExecutor executor() {
        return executor;
    }

    public ReadOnlyObjectProperty<ConsoleSession> sessionProperty() {
        return session.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty connectionProperty() {
        return connection.getReadOnlyProperty();
    }

    /** The servers and the read-only reason the status bar's connection line leaves to its tooltip. */
    public ReadOnlyStringProperty connectionDetailsProperty() {
        return connectionDetails.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** The last failure's one-line description, null when there is none to show. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty connectingProperty() {
        return connecting.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public BooleanProperty darkThemeProperty() {
        return darkTheme;
    }

    public ObservableList<String> recentErrors() {
        return FXCollections.unmodifiableObservableList(recentErrors);
    }
}
