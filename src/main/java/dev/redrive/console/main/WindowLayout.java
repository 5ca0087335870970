package dev.redrive.console.main;

import javafx.geometry.Rectangle2D;

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

    /**
     * This layout made to fit on a screen of these visual bounds: no larger than the screen, and, where it has a
     * position, wholly on it. The default size is larger than the smallest screens the console is made for (1280×800),
     * and a remembered place may be on a screen that is gone.
     */
    public WindowLayout within(Rectangle2D screen) {
        double fittedWidth = Math.min(width, screen.getWidth());
        double fittedHeight = Math.min(height, screen.getHeight());
        if (!hasPosition()) {
            return new WindowLayout(x, y, fittedWidth, fittedHeight, maximized, browserDivider, darkTheme);
        }
        return new WindowLayout(Math.max(screen.getMinX(), Math.min(x, screen.getMaxX() - fittedWidth)),
                Math.max(screen.getMinY(), Math.min(y, screen.getMaxY() - fittedHeight)), fittedWidth, fittedHeight,
                maximized, browserDivider, darkTheme);
    }
}
