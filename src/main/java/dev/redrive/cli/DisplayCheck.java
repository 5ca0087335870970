package dev.redrive.cli;

import dev.redrive.config.ConfigurationException;

import java.util.Locale;
import java.util.Map;

/**
 * The console needs a desktop to draw on. On Linux and the other X11/Wayland systems that is a display named by
 * DISPLAY or WAYLAND_DISPLAY; without one, JavaFX would fail with pages of a stack trace, so the command says it in
 * one line instead (macOS and Windows always have their desktop).
 */
final class DisplayCheck {
    private DisplayCheck() {
    }

    static void requireDisplay(String osName, Map<String, String> env) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.contains("win") || os.contains("mac")) {
            return;
        }
        if (blank(env.get("DISPLAY")) && blank(env.get("WAYLAND_DISPLAY"))) {
            throw new ConfigurationException("the console needs a display and neither DISPLAY nor WAYLAND_DISPLAY is "
                    + "set: run it in a desktop session (or with ssh -X); every other command works without one");
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
