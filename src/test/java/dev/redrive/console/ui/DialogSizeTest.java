package dev.redrive.console.ui;

import javafx.geometry.Rectangle2D;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DialogSizeTest {
    private static final DialogSize SMALLEST = new DialogSize(860, 560);

    private static Rectangle2D screen(double width, double height) {
        return new Rectangle2D(0, 0, width, height);
    }

    @Test
    void overAMaximisedConsoleOnALargeScreenTakesSeventyPercentOfIt() {
        DialogSize size = DialogSize.fit(screen(1920, 1160), screen(1920, 1160), SMALLEST);

        assertThat(size).isEqualTo(new DialogSize(1344, 812));
    }

    @Test
    void overASmallConsoleStillGetsWhatItsContentNeeds() {
        DialogSize size = DialogSize.fit(new Rectangle2D(100, 100, 900, 600), screen(1920, 1160), SMALLEST);

        assertThat(size).isEqualTo(SMALLEST);
    }

    @Test
    void onAScreenSmallerThanTheContentNeedsStaysOnTheScreen() {
        DialogSize size = DialogSize.fit(screen(1024, 600), screen(1024, 600), SMALLEST);

        assertThat(size).isEqualTo(new DialogSize(860, 560));
        assertThat(DialogSize.fit(screen(800, 560), screen(800, 560), SMALLEST))
                .isEqualTo(new DialogSize(760, 520));
    }

    @Test
    void overAVeryLargeConsoleStopsWhereLinesGetTooLongToRead() {
        DialogSize size = DialogSize.fit(screen(3840, 2100), screen(3840, 2100), SMALLEST);

        assertThat(size).isEqualTo(DialogSize.LARGEST);
    }
}
