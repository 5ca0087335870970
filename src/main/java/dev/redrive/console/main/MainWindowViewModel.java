package dev.redrive.console.main;

import dev.redrive.config.RedriveConfig;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** What the main window shows about where it is connected. */
public final class MainWindowViewModel {
    private final ReadOnlyStringWrapper connection = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("Ready");

    public MainWindowViewModel(RedriveConfig config) {
        connection.set("namespace " + config.namespace() + " · " + config.pgUrl() + " · " + config.redisUri());
    }

    public ReadOnlyStringProperty connectionProperty() {
        return connection.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}
