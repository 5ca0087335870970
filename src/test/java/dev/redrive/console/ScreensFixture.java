package dev.redrive.console;

import dev.redrive.console.ui.DesktopServices;
import dev.redrive.testing.TestNamespace;
import javafx.stage.Stage;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

/**
 * The screens a console test shows on its stage, with a preferences node of the test class's own: the screens close
 * after each test (after the test's own {@code @AfterEach}, which may still need them), and the node is removed after
 * the class, so that no remembered layout or column leaks into the next class or the operator's own console. Register
 * it, not the {@link TestNamespace} it is given: it opens the namespace itself, and closes it after the screens that
 * read it, as {@link dev.redrive.testing.LoginsFixture} does.
 */
final class ScreensFixture implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
    /** How long a screen test waits for what the screens show: long enough for a loaded machine; a wait ends as soon as its condition holds. */
    static final Duration WAIT = Duration.ofSeconds(20);

    private final TestNamespace ns;
    private final Preferences preferences;
    private ScreensOnStage screens;

    /** @param node the preferences node under dev/redrive, one per test class */
    ScreensFixture(TestNamespace ns, String node) {
        this.ns = ns;
        this.preferences = Preferences.userRoot().node("dev/redrive/" + node);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        ns.beforeAll(context);
    }

    ScreensOnStage show(Stage stage, DesktopServices desktop) {
        screens = ScreensOnStage.show(stage, ns, preferences, desktop);
        return screens;
    }

    /** In a window of the given size, the list taking {@code divider} of its width. */
    ScreensOnStage show(Stage stage, DesktopServices desktop, double width, double height, double divider) {
        screens = ScreensOnStage.show(stage, ns, preferences, desktop, width, height, divider);
        return screens;
    }

    /** The class's own preferences node, for a test that builds the screens another way (the main window's). */
    Preferences preferences() {
        return preferences;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (screens != null) {
            screens.close();
            screens = null;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws BackingStoreException {
        try {
            preferences.removeNode();
        } finally {
            ns.afterAll(context);
        }
    }
}
