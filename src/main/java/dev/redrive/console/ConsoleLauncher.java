package dev.redrive.console;

import dev.redrive.config.RedriveConfig;
import javafx.application.Application;

/** Starts the JavaFX application with the configuration the command line resolved. */
public final class ConsoleLauncher {
    private static volatile LaunchSettings settings;

    private ConsoleLauncher() {
    }

    /**
     * What the console opens on.
     *
     * @param profileName a saved connection profile to open, or null to use {@code config} (the REDRIVE_* settings)
     */
    public record LaunchSettings(RedriveConfig config, boolean demo, String profileName) {
    }

    public static void launch(RedriveConfig config, boolean demo) {
        launch(config, demo, null);
    }

    public static void launch(RedriveConfig config, boolean demo, String profileName) {
        settings = new LaunchSettings(config, demo, profileName);
        Application.launch(ConsoleApp.class);
    }

    static LaunchSettings settings() {
        return settings != null ? settings
                : new LaunchSettings(RedriveConfig.fromEnvironment(System.getenv()), false, null);
    }
}
