package dev.redrive.console.main;

import javafx.geometry.Rectangle2D;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

import static org.assertj.core.api.Assertions.assertThat;

/** The window's first and remembered places, on the screens the console is made for. */
class WindowLayoutTest {
    private static final Rectangle2D SMALL = new Rectangle2D(0, 0, 1280, 800);
    private final Preferences node = Preferences.userRoot().node("dev/redrive/console-test-window-layout");

    @AfterEach
    void forget() throws BackingStoreException {
        node.removeNode();
    }

    @Test
    void aFirstStart_takesTheSmallestScreenWhole_andMostOfALargeOne_centred() {
        WindowLayout small = WindowLayout.DEFAULT.within(SMALL);
        assertThat(small).isEqualTo(new WindowLayout(0, 0, 1280, 800, false, 0.55, false));

        WindowLayout large = WindowLayout.DEFAULT.within(new Rectangle2D(1920, 24, 2560, 1416));
        assertThat(large.width()).isEqualTo(2304);
        assertThat(large.height()).isEqualTo(1274.4);
        assertThat(large.x()).isEqualTo(1920 + 128);
        assertThat(large.y()).isEqualTo(24 + 70.8, org.assertj.core.data.Offset.offset(0.001));

        WindowLayout tiny = WindowLayout.DEFAULT.within(new Rectangle2D(0, 0, 1024, 740));
        assertThat(tiny.width()).isEqualTo(1024);
        assertThat(tiny.height()).isEqualTo(740);
    }

    @Test
    void aRememberedPlaceOffTheScreen_isBroughtWhollyOnIt() {
        WindowLayout remembered = new WindowLayout(2400, -30, 1360, 860, false, 0.5, true);

        WindowLayout fitted = remembered.within(new Rectangle2D(0, 24, 1600, 976));

        assertThat(fitted.x()).isEqualTo(240);
        assertThat(fitted.y()).isEqualTo(24);
        assertThat(fitted.width()).isEqualTo(1360);
        assertThat(fitted.height()).isEqualTo(860);
        assertThat(fitted.darkTheme()).isTrue();
    }

    @Test
    void eachScreenKeepsItsOwnPlace_theSplitAndThemeAreShared() throws BackingStoreException {
        String laptop = WindowLayout.screenKey(new Rectangle2D(0, 0, 1280, 800));
        String monitor = WindowLayout.screenKey(new Rectangle2D(1280, 0, 2560, 1440));

        new WindowLayout(10, 20, 1200, 760, false, 0.5, false).save(node, laptop);
        new WindowLayout(1400, 40, 2000, 1300, false, 0.6, true).save(node, monitor);

        assertThat(WindowLayout.load(node, laptop)).isEqualTo(new WindowLayout(10, 20, 1200, 760, false, 0.6, true));
        assertThat(WindowLayout.load(node, monitor)).isEqualTo(new WindowLayout(1400, 40, 2000, 1300, false, 0.6, true));
        assertThat(WindowLayout.lastScreen(node)).isEqualTo(monitor);
        assertThat(WindowLayout.load(node, WindowLayout.screenKey(new Rectangle2D(0, 0, 1920, 1080))).hasPosition())
                .as("a screen never seen").isFalse();
    }
}
