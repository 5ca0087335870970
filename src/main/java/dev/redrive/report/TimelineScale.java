package dev.redrive.report;

import dev.redrive.report.ReportDocument.Timeline;

import java.time.Duration;
import java.time.Instant;

/** Maps a timeline's instants onto a drawing width; shared by the SVG and the PDF drawing. */
final class TimelineScale {
    private final Instant from;
    private final double span;
    private final double width;

    TimelineScale(Timeline timeline, double width) {
        this.from = timeline.from();
        this.span = Math.max(1, Duration.between(timeline.from(), timeline.to()).toMillis());
        this.width = width;
    }

    double x(Instant at) {
        return Duration.between(from, at).toMillis() / span * width;
    }

    /** A bar's width, never so thin it disappears. */
    double width(Instant start, Instant end) {
        return Math.max(3, x(end) - x(start));
    }

    static String color(String outcome) {
        return switch (outcome == null ? "" : outcome) {
            case "SUCCEEDED" -> "#2da44e";
            case "RETRY_SCHEDULED" -> "#d29922";
            case "DEAD_LETTERED" -> "#cf222e";
            default -> "#8c959f";
        };
    }
}
