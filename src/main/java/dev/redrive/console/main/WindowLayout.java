package dev.redrive.console.main;

import javafx.geometry.Rectangle2D;

import java.util.Locale;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

/**
 * Where the window was and how it was split, remembered per user with {@link Preferences}: the place and size per
 * screen (a laptop's own screen and the monitor it is docked to each keep theirs), the split and the theme once.
 *
 * @param x NaN until the window was placed once on that screen
 */
public record WindowLayout(double x, double y, double width, double height, boolean maximized,
                           double browserDivider, boolean darkTheme) {

    public static final WindowLayout DEFAULT = new WindowLayout(Double.NaN, Double.NaN, 1360, 860, false, 0.55, false);
    /** The smallest screen the console is made for: a first window takes at least this where the screen allows. */
    static final double SMALLEST_WIDTH = 1280;
    static final double SMALLEST_HEIGHT = 800;
    /** A first window's share of a larger screen's work area: all of it but a margin to see the desktop. */
    static final double FIRST_SHARE = 0.9;
    private static final String LAST_SCREEN = "lastScreen";

    /** "1920x1080@0,0": the key a screen's layout is kept under, from its bounds. */
    public static String screenKey(Rectangle2D screen) {
        return String.format(Locale.ROOT, "screen-%.0fx%.0f@%.0f,%.0f", screen.getWidth(), screen.getHeight(),
                screen.getMinX(), screen.getMinY());
    }

    /** The key of the screen the window was last closed on; null before the first close. */
    public static String lastScreen(Preferences node) {
        return node.get(LAST_SCREEN, null);
    }

    /**
     * The layout remembered for the screen with this key. A screen never seen gets the place the window had before
     * places were kept per screen, if any, else none (a first start).
     */
    public static WindowLayout load(Preferences node, String screen) throws BackingStoreException {
        Preferences place = node.nodeExists(screen) ? node.node(screen) : node;
        return new WindowLayout(
                place.getDouble("x", DEFAULT.x), place.getDouble("y", DEFAULT.y),
                place.getDouble("width", DEFAULT.width), place.getDouble("height", DEFAULT.height),
                place.getBoolean("maximized", DEFAULT.maximized),
                node.getDouble("browserDivider", DEFAULT.browserDivider),
                node.getBoolean("darkTheme", DEFAULT.darkTheme));
    }

    /** Keeps the place and size for the screen with this key, the split and the theme for all. */
    public void save(Preferences node, String screen) {
        Preferences place = node.node(screen);
        place.putDouble("x", x);
        place.putDouble("y", y);
        place.putDouble("width", width);
        place.putDouble("height", height);
        place.putBoolean("maximized", maximized);
        node.put(LAST_SCREEN, screen);
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
     * This layout made to fit on a screen of these visual bounds: no larger than the screen and wholly on it. Without
     * a position (a first start on this screen) it takes most of the work area, at least 1280×800 where the screen
     * allows, centred.
     */
    public WindowLayout within(Rectangle2D screen) {
        if (!hasPosition()) {
            double firstWidth = Math.min(screen.getWidth(), Math.max(SMALLEST_WIDTH, screen.getWidth() * FIRST_SHARE));
            double firstHeight = Math.min(screen.getHeight(),
                    Math.max(SMALLEST_HEIGHT, screen.getHeight() * FIRST_SHARE));
            return new WindowLayout(screen.getMinX() + (screen.getWidth() - firstWidth) / 2,
                    screen.getMinY() + (screen.getHeight() - firstHeight) / 2, firstWidth, firstHeight, maximized,
                    browserDivider, darkTheme);
        }
        double fittedWidth = Math.min(width, screen.getWidth());
        double fittedHeight = Math.min(height, screen.getHeight());
        return new WindowLayout(Math.max(screen.getMinX(), Math.min(x, screen.getMaxX() - fittedWidth)),
                Math.max(screen.getMinY(), Math.min(y, screen.getMaxY() - fittedHeight)), fittedWidth, fittedHeight,
                maximized, browserDivider, darkTheme);
    }
}
