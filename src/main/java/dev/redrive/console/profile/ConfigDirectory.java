package dev.redrive.console.profile;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** The per-user folder where the console keeps its profiles: the platform's usual place for application settings. */
public final class ConfigDirectory {
    private ConfigDirectory() {
    }

    public static Path forCurrentUser() {
        return resolve(System.getProperty("os.name", ""), System.getProperty("user.home"), System.getenv());
    }

    static Path resolve(String osName, String home, Map<String, String> env) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.contains("win") && env.get("APPDATA") != null) {
            return Path.of(env.get("APPDATA"), "Redrive");
        }
        if (os.contains("mac")) {
            return Path.of(home, "Library", "Application Support", "Redrive");
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        return xdg != null && !xdg.isBlank() ? Path.of(xdg, "redrive") : Path.of(home, ".config", "redrive");
    }
}
