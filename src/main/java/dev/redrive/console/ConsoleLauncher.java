package dev.redrive.console;

import dev.redrive.config.RedriveConfig;
import dev.redrive.services.ToolEndpointDiscovery;
import javafx.application.Application;

import java.util.Map;

/** Starts the JavaFX application with the configuration the command line resolved. */
public final class ConsoleLauncher {
    private static volatile LaunchSettings settings;

    private ConsoleLauncher() {
    }

    /**
     * What the console opens on.
     *
     * @param profileName     a saved connection profile to open, or null to use {@code config} (the REDRIVE_* settings)
     * @param lookupEndpoints per tool, where its reconciliation look-up answers (e.g. the sandbox's demo tools); used
     *                        with {@code config}, added to REDRIVE_LOOKUP_ENDPOINTS
     */
    public record LaunchSettings(RedriveConfig config, boolean demo, boolean ownServers, String profileName,
                                 Map<String, String> lookupEndpoints, ToolEndpointDiscovery discovery) {
        public LaunchSettings {
            lookupEndpoints = lookupEndpoints == null ? Map.of() : Map.copyOf(lookupEndpoints);
            discovery = discovery == null ? ToolEndpointDiscovery.NONE : discovery;
        }
    }

    /**
     * Opens the console; {@code discovery} finds tools that run beside whatever namespace it connects to (the command
     * line passes the demo tools').
     */
    public static void launch(RedriveConfig config, boolean demo, String profileName,
                              Map<String, String> lookupEndpoints, ToolEndpointDiscovery discovery) {
        launch(new LaunchSettings(config, demo, false, profileName, lookupEndpoints, discovery));
    }

    /** Opens the console as {@code settings} say; {@code ownServers}: the sandbox runs on servers of its own. */
    public static void launch(LaunchSettings launchSettings) {
        settings = launchSettings;
        Application.launch(ConsoleApp.class);
    }

    static LaunchSettings settings() {
        return settings != null ? settings
                : new LaunchSettings(RedriveConfig.fromEnvironment(System.getenv()), false, false, null, Map.of(), null);
    }
}
