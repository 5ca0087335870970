package dev.redrive.report;

import java.util.Locale;

/** The formats an incident report is written in. */
public enum ReportFormat {
    HTML("html"),
    PDF("pdf"),
    MARKDOWN("md"),
    JSON("json");

    private final String extension;

    ReportFormat(String extension) {
        this.extension = extension;
    }

    public String extension() {
        return extension;
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
