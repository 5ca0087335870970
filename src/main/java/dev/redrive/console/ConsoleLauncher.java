package dev.redrive.console;

import dev.redrive.config.RedriveConfig;
import javafx.application.Application;

/** Starts the JavaFX application with the configuration the command line resolved. */
public final class ConsoleLauncher {
    private static volatile LaunchSettings settings;

    private ConsoleLauncher() {
    }

    public record LaunchSettings(RedriveConfig config, boolean demo) {
    }

    public static void launch(RedriveConfig config, boolean demo) {
        settings = new LaunchSettings(config, demo);
        Application.launch(ConsoleApp.class);
    }

    static LaunchSettings settings() {
        return settings != null ? settings : new LaunchSettings(RedriveConfig.fromEnvironment(System.getenv()), false);
    }
}
