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
     * @param lookupEndpoints reconciliation look-ups for {@code config}, as {@code tool=url, tool=url}
     *                        (REDRIVE_LOOKUP_ENDPOINTS, or the sandbox's demo tools)
     */
    public record LaunchSettings(RedriveConfig config, boolean demo, String profileName, String lookupEndpoints) {
    }

    public static void launch(RedriveConfig config, boolean demo) {
        launch(config, demo, null);
    }

    public static void launch(RedriveConfig config, boolean demo, String profileName) {
        launch(config, demo, profileName, System.getenv("REDRIVE_LOOKUP_ENDPOINTS"));
    }

    public static void launch(RedriveConfig config, boolean demo, String profileName, String lookupEndpoints) {
        settings = new LaunchSettings(config, demo, profileName, lookupEndpoints);
        Application.launch(ConsoleApp.class);
    }

    static LaunchSettings settings() {
        return settings != null ? settings
                : new LaunchSettings(RedriveConfig.fromEnvironment(System.getenv()), false, null,
                System.getenv("REDRIVE_LOOKUP_ENDPOINTS"));
    }
}
