package dev.redrive.report;

import java.util.Locale;

/** The formats an incident report is written in. */
public enum ReportFormat {
    HTML("html", "HTML"),
    PDF("pdf", "PDF"),
    MARKDOWN("md", "Markdown"),
    JSON("json", "JSON");

    private final String extension;
    private final String title;

    ReportFormat(String extension, String title) {
        this.extension = extension;
        this.title = title;
    }

    /** The format's name as people write it: "Markdown", not the constant's "MARKDOWN". */
    public String title() {
        return title;
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
