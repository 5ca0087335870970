package dev.redrive.demo.embedded;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where the sandbox's own servers keep their data, so that it survives a restart: the platform's usual place for an
 * application's data, or REDRIVE_SANDBOX_DIR. Run as root, the data goes under /var/lib/redrive, which the
 * unprivileged user that runs PostgreSQL can reach (root's home it cannot).
 */
public final class SandboxDirectory {
    private SandboxDirectory() {
    }

    /** REDRIVE_SANDBOX_DIR when set, else the platform's place. */
    public static Path forCurrentUser() {
        String chosen = System.getenv("REDRIVE_SANDBOX_DIR");
        if (chosen != null && !chosen.isBlank()) {
            return Path.of(chosen);
        }
        return resolve(System.getProperty("os.name", ""), System.getProperty("user.home"), System.getenv(),
                ServerUser.isRoot());
    }

    static Path resolve(String osName, String home, Map<String, String> env, boolean root) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.contains("win") && env.get("LOCALAPPDATA") != null) {
            return Path.of(env.get("LOCALAPPDATA"), "Redrive", "sandbox");
        }
        if (os.contains("mac")) {
            return Path.of(home, "Library", "Application Support", "Redrive", "sandbox");
        }
        if (root) {
            return Path.of("/var/lib/redrive/sandbox");
        }
        String xdg = env.get("XDG_DATA_HOME");
        return (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".local", "share")).resolve("redrive")
                .resolve("sandbox");
    }
}
