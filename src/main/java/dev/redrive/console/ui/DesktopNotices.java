package dev.redrive.console.ui;

import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.util.Duration;
import org.controlsfx.control.Notifications;

/**
 * Desktop notices at the bottom right of the console's window, over the status bar's connection text rather than the
 * toolbar's controls, in the console's theme. Notices arriving while one shows collapse into one that says so.
 */
public final class DesktopNotices {
    private DesktopNotices() {
    }

    /**
     * Shows a warning notice over {@code anchor}'s window; nothing while the anchor is in no window yet.
     *
     * @param collapsed what one notice says in place of several that came at once
     */
    public static void warn(Node anchor, String title, String text, String collapsed) {
        if (anchor.getScene() == null || anchor.getScene().getWindow() == null) {
            return;
        }
        Notifications several = styled(anchor, Notifications.create().title(title).text(collapsed));
        styled(anchor, Notifications.create().title(title).text(text).threshold(1, several)).showWarning();
    }

    private static Notifications styled(Node anchor, Notifications notification) {
        notification.owner(anchor.getScene().getWindow()).position(Pos.BOTTOM_RIGHT).hideAfter(Duration.seconds(8));
        return Theme.isDark() ? notification.darkStyle() : notification;
    }
}
