package dev.redrive.console.ui;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import javafx.application.Application;

/** The AtlantaFX Primer themes; the console's own stylesheet uses their colour variables, so it follows. */
public final class Theme {
    public static final String CONSOLE_CSS = "/console/theme/console.css";

    private Theme() {
    }

    public static void apply(boolean dark) {
        Application.setUserAgentStylesheet(dark ? new PrimerDark().getUserAgentStylesheet()
                : new PrimerLight().getUserAgentStylesheet());
    }

    /** Whether the dark theme is the one applied (for controls that style themselves, like notifications). */
    public static boolean isDark() {
        return new PrimerDark().getUserAgentStylesheet().equals(Application.getUserAgentStylesheet());
    }

    public static String stylesheet() {
        return Theme.class.getResource(CONSOLE_CSS).toExternalForm();
    }
}
