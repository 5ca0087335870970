package dev.redrive.console.main;

import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

/**
 * Where the window was and how it was split, remembered per user with {@link Preferences}.
 *
 * @param x NaN until the window was placed once (the platform then centres it)
 */
public record WindowLayout(double x, double y, double width, double height, boolean maximized,
                           double browserDivider, boolean darkTheme) {

    public static final WindowLayout DEFAULT = new WindowLayout(Double.NaN, Double.NaN, 1360, 860, false, 0.55, false);

    public static WindowLayout load(Preferences node) {
        return new WindowLayout(
                node.getDouble("x", DEFAULT.x), node.getDouble("y", DEFAULT.y),
                node.getDouble("width", DEFAULT.width), node.getDouble("height", DEFAULT.height),
                node.getBoolean("maximized", DEFAULT.maximized),
                node.getDouble("browserDivider", DEFAULT.browserDivider),
                node.getBoolean("darkTheme", DEFAULT.darkTheme));
    }

    public void save(Preferences node) {
        node.putDouble("x", x);
        node.putDouble("y", y);
        node.putDouble("width", width);
        node.putDouble("height", height);
        node.putBoolean("maximized", maximized);
        node.putDouble("browserDivider", browserDivider);
        node.putBoolean("darkTheme", darkTheme);
        try {
            node.flush();
        } catch (BackingStoreException e) {
            throw new IllegalStateException("cannot save the window layout: " + e.getMessage(), e);
        }
    }

    public boolean hasPosition() {
        return !Double.isNaN(x) && !Double.isNaN(y);
    }
}
