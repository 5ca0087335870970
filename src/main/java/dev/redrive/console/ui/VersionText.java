package dev.redrive.console.ui;

/**
 * A tool's schema version as the console writes it: "demo.charge v2". A message or an operation may carry no version
 * at all; gluing "v" to it then read "vnull".
 */
public final class VersionText {
    private VersionText() {
    }

    /** "v2", or "no version recorded". */
    public static String of(String version) {
        return version == null || version.isBlank() ? "no version recorded" : "v" + version;
    }

    /** "demo.charge v2", or "demo.charge (no version recorded)". */
    public static String of(String tool, String version) {
        return version == null || version.isBlank() ? tool + " (no version recorded)" : tool + " v" + version;
    }
}
