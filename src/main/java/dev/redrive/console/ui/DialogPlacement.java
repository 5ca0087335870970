package dev.redrive.console.ui;

import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.InvalidationListener;
import javafx.geometry.Rectangle2D;
import javafx.scene.control.Dialog;
import javafx.scene.control.DialogEvent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.stage.Screen;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import javafx.util.Duration;

/**
 * Dialogs over the middle of their owner window, wholly on its screen, closed by Escape. JavaFX places a dialog before its pane has its
 * final size (the console sizes many panes to their owner), and such a dialog opened from the groups' context menu
 * came up at the screen's top left corner, away from the window it belongs to.
 */
public final class DialogPlacement {
    private DialogPlacement() {
    }

    /**
     * Owns the dialog by {@code owner} and centres it on it each time it is shown, at its real size. Escape closes it
     * also where its only button is OK (a note saying what was done), as it closes those with Cancel.
     */
    public static void over(Dialog<?> dialog, Window owner) {
        dialog.initOwner(owner);
        dialog.getDialogPane().addEventHandler(KeyEvent.KEY_PRESSED, event -> {
            if (event.getCode() == KeyCode.ESCAPE && dialog.getDialogPane().getButtonTypes().size() == 1) {
                event.consume();
                dialog.close();
            }
        });
        if (owner != null) {
            // Once the show is through: the platform sizes and places the window after announcing it shown.
            dialog.addEventHandler(DialogEvent.DIALOG_SHOWN, event -> Platform.runLater(
                    () -> new Centring(dialog.getDialogPane().getScene().getWindow(), owner).place()));
        }
    }

    /** Centres a window (the wizard's, which ControlsFX makes) on its owner each time it shows. */
    public static void over(Window window, Window owner) {
        window.addEventHandler(WindowEvent.WINDOW_SHOWN, event -> new Centring(window, owner).place());
    }

    /**
     * Centres the window now, and again as it takes its final size (a dialog is shown before it has one, and its first
     * layout may change it) for a moment after: a window the operator resizes later stays where it is.
     */
    private static final class Centring {
        /** How long after showing a window's size is its own doing rather than the operator's. */
        private static final Duration SETTLING = Duration.millis(500);

        private final Window window;
        private final Window owner;
        private final InvalidationListener resized = observable -> centre();

        Centring(Window window, Window owner) {
            this.window = window;
            this.owner = owner;
        }

        void place() {
            window.widthProperty().addListener(resized);
            window.heightProperty().addListener(resized);
            PauseTransition settled = new PauseTransition(SETTLING);
            settled.setOnFinished(event -> stop());
            window.addEventHandler(WindowEvent.WINDOW_HIDDEN, hidden -> stop());
            centre();
            settled.play();
        }

        private void stop() {
            window.widthProperty().removeListener(resized);
            window.heightProperty().removeListener(resized);
        }

        private void centre() {
            // A dialog is shown before it has a size: it is centred once it has one.
            if (Double.isNaN(window.getWidth()) || Double.isNaN(window.getHeight())) {
                return;
            }
            Rectangle2D at = centred(bounds(owner), window.getWidth(), window.getHeight(), screenOf(owner));
            window.setX(at.getMinX());
            window.setY(at.getMinY());
        }
    }

    /** Where a window of this size sits centred on {@code owner}, moved onto {@code screen} where it would leave it. */
    public static Rectangle2D centred(Rectangle2D owner, double width, double height, Rectangle2D screen) {
        double x = owner.getMinX() + (owner.getWidth() - width) / 2;
        double y = owner.getMinY() + (owner.getHeight() - height) / 2;
        return new Rectangle2D(Math.max(screen.getMinX(), Math.min(x, screen.getMaxX() - width)),
                Math.max(screen.getMinY(), Math.min(y, screen.getMaxY() - height)), width, height);
    }

    private static Rectangle2D bounds(Window owner) {
        return new Rectangle2D(owner.getX(), owner.getY(), owner.getWidth(), owner.getHeight());
    }

    private static Rectangle2D screenOf(Window owner) {
        return Screen.getScreensForRectangle(bounds(owner)).stream().findFirst().orElse(Screen.getPrimary())
                .getVisualBounds();
    }
}
