package dev.redrive.report;

import java.util.Locale;

/** The formats an incident report is written in. */
public enum ReportFormat {
    HTML("html", "text/html"),
    PDF("pdf", "application/pdf"),
    MARKDOWN("md", "text/markdown"),
    JSON("json", "application/json");

    private final String extension;
    private final String mediaType;

    ReportFormat(String extension, String mediaType) {
        this.extension = extension;
        this.mediaType = mediaType;
    }

    public String extension() {
        return extension;
    }

    public String mediaType() {
        return mediaType;
    }

    /** Parses {@code html}, {@code pdf}, {@code md} / {@code markdown} or {@code json}. */
    public static ReportFormat parse(String text) {
        String value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (ReportFormat format : values()) {
            if (format.extension.equals(value) || format.name().toLowerCase(Locale.ROOT).equals(value)) {
                return format;
            }
        }
        throw new IllegalArgumentException("report format must be html, pdf, md or json, got '" + text + "'");
    }
}
