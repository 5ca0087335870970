package dev.redrive.console.ui;

import javafx.geometry.Rectangle2D;
import javafx.scene.control.DialogPane;
import javafx.stage.Screen;
import javafx.stage.Window;

/**
 * The room a wide dialog gets: {@value #SHARE} of its owner window, never less than its content needs and never more
 * than the owner's screen (nor than {@link #LARGEST}, where long lines stop being readable).
 *
 * <p>Why it exists: the AtlantaFX theme caps every {@code .dialog-pane} at 600 px wide, so a dialog with tables or long
 * explanations truncates them whatever its content asks for. {@link #applyTo} lifts that cap through the console
 * stylesheet's {@value #STYLE_CLASS} rule: the theme's rule wins over a maximum set in code.
 */
public record DialogSize(double width, double height) {
    static final double SHARE = 0.7;
    /** What is left free around a dialog on its screen, for the window frame and the desktop's panels. */
    static final double SCREEN_MARGIN = 40;
    static final DialogSize LARGEST = new DialogSize(1600, 1100);
    static final String STYLE_CLASS = "sized-dialog";

    /**
     * The size for a dialog over {@code owner}, at least {@code smallest} unless the screen is smaller still.
     *
     * @param owner  the owner window's bounds
     * @param screen the visual bounds of the owner's screen
     */
    public static DialogSize fit(Rectangle2D owner, Rectangle2D screen, DialogSize smallest) {
        return new DialogSize(
                bounded(owner.getWidth() * SHARE, smallest.width, Math.min(LARGEST.width, screen.getWidth() - SCREEN_MARGIN)),
                bounded(owner.getHeight() * SHARE, smallest.height, Math.min(LARGEST.height, screen.getHeight() - SCREEN_MARGIN)));
    }

    /** {@link #fit} for a real owner window (or the primary screen when there is none). */
    public static DialogSize over(Window owner, DialogSize smallest) {
        if (owner == null) {
            Rectangle2D screen = Screen.getPrimary().getVisualBounds();
            return fit(screen, screen, smallest);
        }
        Rectangle2D bounds = new Rectangle2D(owner.getX(), owner.getY(), owner.getWidth(), owner.getHeight());
        Rectangle2D screen = Screen.getScreensForRectangle(bounds).stream().findFirst().orElse(Screen.getPrimary())
                .getVisualBounds();
        return fit(bounds, screen, smallest);
    }

    private static double bounded(double wanted, double smallest, double largest) {
        return Math.max(Math.min(smallest, largest), Math.min(wanted, largest));
    }

    /**
     * Makes the pane ask for this size and lifts the theme's width cap, so it can also grow when the window does. The
     * pane must carry the console stylesheet.
     */
    public void applyTo(DialogPane pane) {
        uncap(pane);
        pane.setPrefSize(width, height);
    }

    /** Lets the pane be as wide as its content asks (and the window allows). The pane must carry the console stylesheet. */
    public static void uncap(DialogPane pane) {
        if (!pane.getStyleClass().contains(STYLE_CLASS)) {
            pane.getStyleClass().add(STYLE_CLASS);
        }
    }
}
