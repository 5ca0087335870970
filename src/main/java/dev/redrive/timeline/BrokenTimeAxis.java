package dev.redrive.timeline;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Maps the instants of a timeline onto a horizontal range with a broken axis: the first moment (the first attempt's
 * start) on the left, the last (finish, retry due, DLQ, redrive) on the right. Linear while that leaves every labelled
 * moment (an attempt's start) the room its label needs; otherwise the longest idle stretches (a redrive an hour after
 * the DLQ) are drawn shorter, one by one, as breaks to be marked, until it does. A linear axis would give such a
 * stretch nearly all the width and pile the attempts before it onto one another. The console's attempt timeline and
 * the reports' timelines both draw with it. Pure arithmetic, no toolkit.
 */
public final class BrokenTimeAxis {
    /** Only a stretch longer than this many times the median stretch between two moments is ever drawn as a break. */
    private static final double BREAK_FACTOR = 4;

    private final List<Instant> stops;
    private final double[] xs;
    private final List<Break> breaks;

    /** A stretch of time drawn shorter than it lasted, from {@code fromX} to {@code toX}. */
    public record Break(Instant from, Instant to, double fromX, double toX) {
        public Duration length() {
            return Duration.between(from, to);
        }
    }

    private BrokenTimeAxis(List<Instant> stops, double[] xs, List<Break> breaks) {
        this.stops = stops;
        this.xs = xs;
        this.breaks = breaks;
    }

    /**
     * @param moments      every moment the timeline marks: the corners of the axis
     * @param labelled     the moments that carry a label, each of which needs {@code labelSpacing} before the next
     * @param labelSpacing the room, in the drawing's units, two successive labelled moments need
     */
    public static BrokenTimeAxis of(SortedSet<Instant> moments, Collection<Instant> labelled, double labelSpacing,
                                    double left, double width) {
        List<Instant> stops = new ArrayList<>(moments);
        if (stops.size() < 2) {
            Instant only = stops.isEmpty() ? Instant.EPOCH : stops.get(0);
            stops = List.of(only, only.plusSeconds(1));
        }
        double[] real = new double[stops.size() - 1];
        for (int i = 0; i < real.length; i++) {
            real[i] = Duration.between(stops.get(i), stops.get(i + 1)).toNanos() / 1e6;
        }
        List<Integer> labelledStops = labelledStops(labelled, stops);
        double breakable = BREAK_FACTOR * median(real);
        boolean[] broken = new boolean[real.length];
        double[] xs = positions(real, broken, left, width);
        while (crowded(xs, labelledStops, labelSpacing) > 0) {
            int longest = longestUnbroken(real, broken);
            if (longest < 0 || real[longest] <= breakable) {
                break;
            }
            broken[longest] = true;
            double[] tried = positions(real, broken, left, width);
            // Two attempts a few milliseconds apart stay close whatever is broken: stop once breaking does not help.
            if (!roomier(tried, xs, labelledStops, labelSpacing)) {
                broken[longest] = false;
                break;
            }
            xs = tried;
        }
        List<Break> breaks = new ArrayList<>();
        for (int i = 0; i < real.length; i++) {
            if (broken[i]) {
                breaks.add(new Break(stops.get(i), stops.get(i + 1), xs[i], xs[i + 1]));
            }
        }
        return new BrokenTimeAxis(List.copyOf(stops), xs, List.copyOf(breaks));
    }

    /**
     * Pixel positions of the stops: unbroken stretches in proportion to their length; a broken one as long as the
     * longest unbroken stretch, a little more the longer it lasted, so breaks still show their order of size.
     */
    private static double[] positions(double[] real, boolean[] broken, double left, double width) {
        double unit = 0;
        for (int i = 0; i < real.length; i++) {
            if (!broken[i]) {
                unit = Math.max(unit, real[i]);
            }
        }
        unit = Math.max(unit, 1);
        double[] drawn = new double[real.length];
        double total = 0;
        for (int i = 0; i < real.length; i++) {
            drawn[i] = broken[i] ? unit * (1 + Math.log10(real[i] / unit) / 2) : real[i];
            total += drawn[i];
        }
        double[] xs = new double[real.length + 1];
        xs[0] = left;
        for (int i = 0; i < real.length; i++) {
            xs[i + 1] = xs[i] + (total == 0 ? 0 : drawn[i] / total * width);
        }
        return xs;
    }

    /** The indexes of the stops that carry a label, in order. */
    private static List<Integer> labelledStops(Collection<Instant> labelled, List<Instant> stops) {
        return new TreeSet<>(labelled).stream().map(stops::indexOf).filter(index -> index >= 0).toList();
    }

    /** Fewer crowded labels, or as many with more room between the closest two. */
    private static boolean roomier(double[] tried, double[] xs, List<Integer> labelled, double spacing) {
        int before = crowded(xs, labelled, spacing);
        int after = crowded(tried, labelled, spacing);
        return after < before || after == before && closest(tried, labelled) > closest(xs, labelled) * 1.01;
    }

    private static double closest(double[] xs, List<Integer> labelled) {
        double closest = Double.MAX_VALUE;
        for (int i = 1; i < labelled.size(); i++) {
            closest = Math.min(closest, xs[labelled.get(i)] - xs[labelled.get(i - 1)]);
        }
        return closest;
    }

    /** How many successive labelled moments lie closer than their labels need. */
    private static int crowded(double[] xs, List<Integer> labelled, double spacing) {
        int crowded = 0;
        for (int i = 1; i < labelled.size(); i++) {
            if (xs[labelled.get(i)] - xs[labelled.get(i - 1)] < spacing) {
                crowded++;
            }
        }
        return crowded;
    }

    private static int longestUnbroken(double[] real, boolean[] broken) {
        int longest = -1;
        for (int i = 0; i < real.length; i++) {
            if (!broken[i] && (longest < 0 || real[i] > real[longest])) {
                longest = i;
            }
        }
        return longest;
    }

    /** The median of the positive lengths; 1 ms when none is positive. */
    private static double median(double[] lengths) {
        double[] positive = Arrays.stream(lengths).filter(length -> length > 0).sorted().toArray();
        return positive.length == 0 ? 1 : positive[positive.length / 2];
    }

    /** Where an instant is drawn: linear between the two moments around it; clamped to the ends. */
    public double x(Instant instant) {
        if (!instant.isAfter(stops.get(0))) {
            return xs[0];
        }
        for (int i = 1; i < stops.size(); i++) {
            Instant stop = stops.get(i);
            if (!instant.isAfter(stop)) {
                Instant previous = stops.get(i - 1);
                double part = Duration.between(previous, instant).toNanos() / (double) Duration.between(previous, stop).toNanos();
                return xs[i - 1] + part * (xs[i] - xs[i - 1]);
            }
        }
        return xs[xs.length - 1];
    }

    /** The pixel width between two instants, never less than {@code minimum}. */
    public double width(Instant from, Instant to, double minimum) {
        return Math.max(minimum, x(to) - x(from));
    }

    /** The first moment, the left end of the axis. */
    public Instant origin() {
        return stops.get(0);
    }

    /** The stretches drawn shorter than they lasted, in order. */
    public List<Break> breaks() {
        return breaks;
    }
}
