package dev.redrive.console.ui;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import javafx.application.Application;
import javafx.application.ConditionalFeature;
import javafx.application.Platform;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The AtlantaFX Primer themes; the console's own stylesheet uses their colour variables, so it follows. */
public final class Theme {
    public static final String CONSOLE_CSS = "/console/theme/console.css";
    /** Popups that fill their window, for screens without transparent windows. */
    private static final String OPAQUE_POPUPS_CSS = "/console/theme/opaque-popups.css";

    private static volatile boolean dark;

    private Theme() {
    }

    /**
     * Makes the light or dark Primer theme the user-agent stylesheet of every window, dialogs and popups included.
     * Where windows cannot be transparent (an X server without a compositing window manager) the theme's popups are
     * drawn without the shadow that would otherwise sit on a white frame around every dark menu.
     */
    public static void apply(boolean dark) {
        apply(dark, Platform.isSupported(ConditionalFeature.TRANSPARENT_WINDOW));
    }

    /** {@link #apply(boolean)} for a screen that can or cannot show transparent windows. */
    public static void apply(boolean dark, boolean transparentWindows) {
        Theme.dark = dark;
        String primer = dark ? new PrimerDark().getUserAgentStylesheet() : new PrimerLight().getUserAgentStylesheet();
        Application.setUserAgentStylesheet(transparentWindows ? primer : withOpaquePopups(primer));
    }

    /** The theme followed by the opaque-popup rules, as one stylesheet (a window has one user-agent stylesheet). */
    private static String withOpaquePopups(String primer) {
        String css = "@import url(\"" + Theme.class.getResource(primer).toExternalForm() + "\");\n"
                + "@import url(\"" + Theme.class.getResource(OPAQUE_POPUPS_CSS).toExternalForm() + "\");\n";
        return "data:text/css;base64," + Base64.getEncoder().encodeToString(css.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether the dark theme is the one applied (for controls that style themselves, like notifications). */
    public static boolean isDark() {
        return dark;
    }

    public static String stylesheet() {
        return Theme.class.getResource(CONSOLE_CSS).toExternalForm();
    }
}
