package dev.redrive.report;

import dev.redrive.health.Durations;
import dev.redrive.report.ReportDocument.Bar;
import dev.redrive.report.ReportDocument.Marker;
import dev.redrive.report.ReportDocument.Timeline;
import dev.redrive.timeline.BrokenTimeAxis;

import java.time.Instant;
import java.util.List;
import java.util.TreeSet;

/**
 * A report's timeline on a drawing width, for its figure in the HTML and PDF reports: the broken axis the console's attempt
 * timeline uses (attempts seconds apart stay apart when a redrive came an hour later), bars never so thin they
 * disappear, and each outcome's colour.
 */
final class ReportTimelineAxis {
    private final BrokenTimeAxis axis;

    /**
     * @param barSpacing the room, in the drawing's units, two successive attempt starts need to be told apart
     */
    ReportTimelineAxis(Timeline timeline, double width, double barSpacing) {
        TreeSet<Instant> moments = new TreeSet<>();
        for (Bar bar : timeline.bars()) {
            moments.add(bar.start());
            moments.add(bar.end());
        }
        timeline.markers().stream().map(Marker::at).forEach(moments::add);
        List<Instant> starts = timeline.bars().stream().map(Bar::start).toList();
        this.axis = BrokenTimeAxis.of(moments, starts, barSpacing, 0, width);
    }

    double x(Instant at) {
        return axis.x(at);
    }

    /** A bar's width, never so thin it disappears. */
    double width(Instant start, Instant end) {
        return axis.width(start, end, 3);
    }

    /** The stretches drawn shorter than they lasted: where the drawing marks its axis as broken. */
    List<BrokenTimeAxis.Break> breaks() {
        return axis.breaks();
    }

    /** What a break's mark says: how long nothing happened there. */
    static String idle(BrokenTimeAxis.Break gap) {
        return Durations.human(gap.length()) + " idle";
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
