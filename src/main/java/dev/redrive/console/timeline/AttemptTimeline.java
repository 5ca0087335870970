package dev.redrive.console.timeline;

import dev.redrive.health.Durations;
import dev.redrive.timeline.BrokenTimeAxis;
import javafx.beans.property.ObjectProperty;
import javafx.geometry.Bounds;
import javafx.beans.property.SimpleObjectProperty;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Region;
import javafx.scene.shape.Line;
import javafx.scene.shape.Rectangle;
import javafx.util.Duration;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An operation's attempts on a time axis: one bar per attempt coloured by outcome and failure class, the backoff gap
 * to the next eligible time (dashed), the Retry-After the tool asked for (a band under the gap), and the moment the
 * operation entered the DLQ. Hovering a bar shows the attempt's normalized error. The axis starts at the first attempt
 * and is broken where nothing happened for long ({@link BrokenTimeAxis}), so attempts an hour apart stay readable;
 * labels are laid out left to right in rows of their own and never drawn over one another.
 */
public final class AttemptTimeline extends Region {
    private static final double PADDING = 12;
    private static final double ROW = 18;
    private static final double BAR_HEIGHT = 22;
    private static final double MIN_BAR_WIDTH = 6;
    /** Room kept free between two labels of one row. */
    private static final double LABEL_GAP = 6;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

    private final ObjectProperty<TimelineData> data = new SimpleObjectProperty<>(this, "data", TimelineData.EMPTY);
    private final List<Shape> shapes = new ArrayList<>();
    private final Line axis = new Line();
    /** One mark per break of the axis; how many depends on the width, so layout keeps them. */
    private final List<Label> breakMarks = new ArrayList<>();

    public AttemptTimeline() {
        getStyleClass().add("attempt-timeline");
        axis.getStyleClass().add("timeline-axis");
        setMinHeight(116);
        setPrefHeight(116);
        data.addListener((obs, was, now) -> rebuild());
        rebuild();
    }

    public ObjectProperty<TimelineData> dataProperty() {
        return data;
    }

    public void setData(TimelineData value) {
        data.set(value == null ? TimelineData.EMPTY : value);
    }

    public TimelineData getData() {
        return data.get();
    }

    /** The attempt bars, in attempt order (for tests and accessibility). */
    public List<Node> bars() {
        return nodes(Kind.BAR);
    }

    /** The "#n" labels of the attempts, in attempt order. */
    public List<Node> attemptLabels() {
        return nodes(Kind.LABEL);
    }

    /** Every text on the timeline that is showing: attempt labels, the DLQ moment, axis times and breaks. */
    public List<Node> shownTexts() {
        return shapes.stream().filter(shape -> shape.node() instanceof Label && shape.node().isVisible())
                .map(Shape::node).toList();
    }

    private List<Node> nodes(Kind kind) {
        return shapes.stream().filter(shape -> shape.kind == kind).map(shape -> shape.node).toList();
    }

    private enum Kind { BAR, BACKOFF, RETRY_AFTER, DLQ, DLQ_LABEL, LABEL, TICK }

    /** A child node and the instants it is laid out between. */
    private record Shape(Kind kind, Node node, Instant from, Instant to) {
    }

    private void rebuild() {
        shapes.clear();
        breakMarks.clear();
        getChildren().setAll(axis);
        TimelineData current = data.get();
        for (TimelineAttempt attempt : current.attempts()) {
            Instant end = attempt.endOrStart();
            if (attempt.nextEligibleAt() != null && attempt.nextEligibleAt().isAfter(end)) {
                Line backoff = new Line();
                backoff.getStyleClass().add("timeline-backoff");
                Tooltip.install(backoff, tooltip("Backoff until " + CLOCK.format(attempt.nextEligibleAt()) + " ("
                        + Durations.human(java.time.Duration.between(end, attempt.nextEligibleAt())) + ")"));
                add(Kind.BACKOFF, backoff, end, attempt.nextEligibleAt());
            }
            if (attempt.retryAfter() != null && !attempt.retryAfter().isZero()) {
                Rectangle retryAfter = new Rectangle();
                retryAfter.getStyleClass().add("timeline-retry-after");
                Tooltip.install(retryAfter, tooltip("Retry-After " + Durations.human(attempt.retryAfter())));
                add(Kind.RETRY_AFTER, retryAfter, end, end.plus(attempt.retryAfter()));
            }
            Rectangle bar = new Rectangle();
            bar.getStyleClass().addAll("timeline-bar", "outcome-" + attempt.outcome().toLowerCase(Locale.ROOT).replace('_', '-'));
            if (attempt.errorClass() != null) {
                bar.getStyleClass().add("class-" + attempt.errorClass().toLowerCase(Locale.ROOT).replace('_', '-'));
            }
            bar.setArcWidth(4);
            bar.setArcHeight(4);
            bar.setUserData(attempt);
            Tooltip.install(bar, tooltip(describe(attempt)));
            add(Kind.BAR, bar, attempt.startedAt(), end);
            add(Kind.LABEL, label("#" + attempt.attempt(), "timeline-attempt-label"), attempt.startedAt(), attempt.startedAt());
        }
        if (current.deadLetteredAt() != null) {
            Line marker = new Line();
            marker.getStyleClass().add("timeline-dlq");
            Tooltip.install(marker, tooltip("Entered the DLQ at " + CLOCK.format(current.deadLetteredAt())));
            add(Kind.DLQ, marker, current.deadLetteredAt(), current.deadLetteredAt());
            add(Kind.DLQ_LABEL, label("DLQ " + CLOCK.format(current.deadLetteredAt()), "timeline-dlq-label"),
                    current.deadLetteredAt(), current.deadLetteredAt());
        }
        if (!current.attempts().isEmpty()) {
            addTicks(current);
        }
        requestLayout();
    }

    /**
     * Axis times where something happened: the first attempt's clock time, then each later attempt and the DLQ moment
     * as an offset from it. Layout drops those that would run into the one before.
     */
    private void addTicks(TimelineData current) {
        Instant origin = current.attempts().get(0).startedAt();
        add(Kind.TICK, label(CLOCK.format(origin), "timeline-tick"), origin, origin);
        java.util.TreeSet<Instant> moments = new java.util.TreeSet<>();
        current.attempts().forEach(attempt -> moments.add(attempt.startedAt()));
        if (current.deadLetteredAt() != null) {
            moments.add(current.deadLetteredAt());
        }
        String previous = "";
        for (Instant moment : moments.tailSet(origin, false)) {
            String offset = "+" + Durations.human(java.time.Duration.between(origin, moment));
            if (!offset.equals(previous)) {
                add(Kind.TICK, label(offset, "timeline-tick"), moment, moment);
            }
            previous = offset;
        }
    }

    private static Label label(String text, String styleClass) {
        Label label = new Label(text);
        label.getStyleClass().add(styleClass);
        label.setMinWidth(Region.USE_PREF_SIZE);
        label.setMouseTransparent(true);
        return label;
    }

    private void add(Kind kind, Node node, Instant from, Instant to) {
        shapes.add(new Shape(kind, node, from, to));
        getChildren().add(node);
    }

    private static Tooltip tooltip(String text) {
        Tooltip tooltip = new Tooltip(text);
        tooltip.setShowDelay(Duration.millis(150));
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(520);
        return tooltip;
    }

    static String describe(TimelineAttempt attempt) {
        StringBuilder text = new StringBuilder("Attempt ").append(attempt.attempt()).append(" · ")
                .append(attempt.outcome().replace('_', ' '));
        if (attempt.errorClass() != null) {
            text.append(" · ").append(attempt.errorClass());
        }
        text.append("\nstarted ").append(CLOCK.format(attempt.startedAt()));
        if (attempt.finishedAt() != null) {
            text.append(", took ").append(Durations.human(java.time.Duration.between(attempt.startedAt(), attempt.finishedAt())));
        }
        if (attempt.errorMessage() != null && !attempt.errorMessage().isBlank()) {
            text.append("\n").append(attempt.errorMessage());
        }
        if (attempt.retryAfter() != null) {
            text.append("\nRetry-After ").append(Durations.human(attempt.retryAfter()));
        }
        if (attempt.nextEligibleAt() != null) {
            text.append("\nnext eligible ").append(CLOCK.format(attempt.nextEligibleAt()));
        }
        return text.toString();
    }

    @Override
    protected void layoutChildren() {
        double width = Math.max(1, getWidth() - 2 * PADDING);
        TimelineData current = data.get();
        BrokenTimeAxis scale = current.axis(PADDING, width);
        double dlqRow = 2;
        double labelRow = dlqRow + ROW;
        double barTop = labelRow + ROW;
        double barMiddle = barTop + BAR_HEIGHT / 2;
        double axisY = barTop + BAR_HEIGHT + 24;
        axis.setStartX(PADDING);
        axis.setEndX(PADDING + width);
        axis.setStartY(axisY);
        axis.setEndY(axisY);
        Rows rows = new Rows();
        for (Shape shape : shapes) {
            double from = scale.x(shape.from());
            double to = scale.x(shape.to());
            switch (shape.kind()) {
                case BAR -> {
                    Rectangle bar = (Rectangle) shape.node();
                    bar.setX(from);
                    bar.setY(barTop);
                    bar.setWidth(scale.width(shape.from(), shape.to(), MIN_BAR_WIDTH));
                    bar.setHeight(BAR_HEIGHT);
                }
                case BACKOFF -> {
                    Line line = (Line) shape.node();
                    line.setStartX(from + MIN_BAR_WIDTH);
                    line.setEndX(Math.max(from + MIN_BAR_WIDTH, to));
                    line.setStartY(barMiddle);
                    line.setEndY(barMiddle);
                }
                case RETRY_AFTER -> {
                    Rectangle band = (Rectangle) shape.node();
                    band.setX(from + MIN_BAR_WIDTH);
                    band.setY(barTop + BAR_HEIGHT + 4);
                    band.setWidth(Math.max(2, to - from - MIN_BAR_WIDTH));
                    band.setHeight(5);
                }
                case DLQ -> {
                    Line line = (Line) shape.node();
                    line.setStartX(from);
                    line.setEndX(from);
                    // From the bars down: started at its label's row it crossed the attempt labels' row and struck
                    // through the last attempt's number, which sits right where the operation entered the DLQ.
                    line.setStartY(barTop - 2);
                    line.setEndY(axisY + 4);
                }
                case DLQ_LABEL -> rows.place(shape.node(), dlqRow, from + 3, false);
                case LABEL -> rows.place(shape.node(), labelRow, from, false);
                case TICK -> rows.place(shape.node(), axisY + 8, from, true);
            }
        }
        markBreaks(scale.breaks(), axisY);
    }

    /** A "≈" on the axis in the middle of each break, its tooltip telling how long the stretch really was. */
    private void markBreaks(List<BrokenTimeAxis.Break> breaks, double axisY) {
        while (breakMarks.size() > breaks.size()) {
            getChildren().remove(breakMarks.remove(breakMarks.size() - 1));
        }
        while (breakMarks.size() < breaks.size()) {
            Label mark = label("≈", "timeline-break");
            mark.setMouseTransparent(false);
            mark.setTooltip(tooltip(""));
            breakMarks.add(mark);
            getChildren().add(mark);
        }
        for (int i = 0; i < breaks.size(); i++) {
            BrokenTimeAxis.Break gap = breaks.get(i);
            Label mark = breakMarks.get(i);
            mark.getTooltip().setText(Durations.human(gap.length()) + " without activity between " + CLOCK.format(gap.from())
                    + " and " + CLOCK.format(gap.to()) + ", drawn shorter");
            mark.autosize();
            Bounds size = mark.getLayoutBounds();
            mark.relocate((gap.fromX() + gap.toX()) / 2 - size.getWidth() / 2, axisY - size.getHeight() / 2);
        }
    }

    /** The breaks of the axis as last laid out (for tests). */
    public List<Label> breakMarks() {
        return List.copyOf(breakMarks);
    }

    /**
     * Labels of one row placed left to right: each at its wanted x, or just after the one before when that one is in
     * the way. Attempt and DLQ labels always show (moved right and, at the right end, kept inside); an axis time that
     * would not fit is hidden rather than drawn over another.
     */
    private final class Rows {
        private final java.util.Map<Double, Double> nextFree = new java.util.HashMap<>();

        void place(Node label, double y, double wantedX, boolean centred) {
            label.autosize();
            double labelWidth = label.getLayoutBounds().getWidth();
            double right = getWidth() - 2;
            double x = centred ? wantedX - labelWidth / 2 : wantedX;
            x = Math.max(Math.max(2, x), nextFree.getOrDefault(y, 0.0));
            boolean fits = x + labelWidth <= right;
            if (centred) {
                label.setVisible(fits);
                if (!fits) {
                    return;
                }
            } else if (!fits) {
                x = Math.max(nextFree.getOrDefault(y, 0.0), right - labelWidth);
            }
            label.relocate(x, y);
            nextFree.put(y, x + labelWidth + LABEL_GAP);
        }
    }

    @Override
    protected double computePrefWidth(double height) {
        return 480;
    }
}
