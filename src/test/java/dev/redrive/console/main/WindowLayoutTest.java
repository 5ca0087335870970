package dev.redrive.console.main;

import javafx.geometry.Rectangle2D;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The window's first and remembered places, on the screens the console is made for. */
class WindowLayoutTest {
    private static final Rectangle2D SMALL = new Rectangle2D(0, 0, 1280, 800);

    @Test
    void theDefaultSize_fitsTheSmallestScreen_andIsLeftToThePlatformToCentre() {
        WindowLayout fitted = WindowLayout.DEFAULT.within(SMALL);

        assertThat(fitted.width()).isEqualTo(1280);
        assertThat(fitted.height()).isEqualTo(800);
        assertThat(fitted.hasPosition()).isFalse();
        assertThat(WindowLayout.DEFAULT.within(new Rectangle2D(0, 0, 1920, 1200))).isEqualTo(WindowLayout.DEFAULT);
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
}
