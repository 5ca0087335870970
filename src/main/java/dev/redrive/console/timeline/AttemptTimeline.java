package dev.redrive.console.timeline;

import dev.redrive.health.Durations;
import javafx.beans.property.ObjectProperty;
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
 * operation entered the DLQ. Hovering a bar shows the attempt's normalized error.
 */
public final class AttemptTimeline extends Region {
    private static final double PADDING = 12;
    private static final double AXIS_HEIGHT = 20;
    private static final double BAR_HEIGHT = 22;
    private static final double MIN_BAR_WIDTH = 6;
    private static final int TICKS = 5;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

    private final ObjectProperty<TimelineData> data = new SimpleObjectProperty<>(this, "data", TimelineData.EMPTY);
    private final List<Shape> shapes = new ArrayList<>();
    private final Line axis = new Line();

    public AttemptTimeline() {
        getStyleClass().add("attempt-timeline");
        axis.getStyleClass().add("timeline-axis");
        setMinHeight(110);
        setPrefHeight(120);
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
        return shapes.stream().filter(shape -> shape.kind == Kind.BAR).map(shape -> shape.node).toList();
    }

    private enum Kind { BAR, BACKOFF, RETRY_AFTER, DLQ, LABEL, TICK }

    /** A child node and the instants it is laid out between. */
    private record Shape(Kind kind, Node node, Instant from, Instant to) {
    }

    private void rebuild() {
        shapes.clear();
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
            Label label = new Label("#" + attempt.attempt());
            label.getStyleClass().add("timeline-attempt-label");
            label.setMouseTransparent(true);
            add(Kind.LABEL, label, attempt.startedAt(), attempt.startedAt());
        }
        if (current.deadLetteredAt() != null) {
            Line marker = new Line();
            marker.getStyleClass().add("timeline-dlq");
            Label dlq = new Label("DLQ " + CLOCK.format(current.deadLetteredAt()));
            dlq.getStyleClass().add("timeline-dlq-label");
            Tooltip.install(marker, tooltip("Entered the DLQ at " + CLOCK.format(current.deadLetteredAt())));
            add(Kind.DLQ, marker, current.deadLetteredAt(), current.deadLetteredAt());
            add(Kind.DLQ, dlq, current.deadLetteredAt(), current.deadLetteredAt());
        }
        if (!current.attempts().isEmpty()) {
            TimelineScale scale = TimelineScale.of(current, 0, 1);
            Instant origin = current.attempts().get(0).startedAt();
            for (Instant tick : scale.ticks(TICKS)) {
                long offset = java.time.Duration.between(origin, tick).toMillis();
                Label text = new Label((offset >= 0 ? "+" : "−") + Durations.human(java.time.Duration.ofMillis(Math.abs(offset))));
                text.getStyleClass().add("timeline-tick");
                add(Kind.TICK, text, tick, tick);
            }
        }
        requestLayout();
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
        TimelineScale scale = TimelineScale.of(data.get(), PADDING, width);
        double barTop = PADDING + 16;
        double barMiddle = barTop + BAR_HEIGHT / 2;
        double axisY = barTop + BAR_HEIGHT + 22;
        axis.setStartX(PADDING);
        axis.setEndX(PADDING + width);
        axis.setStartY(axisY);
        axis.setEndY(axisY);
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
                    if (shape.node() instanceof Line line) {
                        line.setStartX(from);
                        line.setEndX(from);
                        line.setStartY(PADDING);
                        line.setEndY(axisY + 4);
                    } else {
                        Node label = shape.node();
                        label.autosize();
                        double labelWidth = label.getLayoutBounds().getWidth();
                        label.relocate(Math.min(from + 4, getWidth() - labelWidth - 2), PADDING - 8);
                    }
                }
                case LABEL -> {
                    Node label = shape.node();
                    label.autosize();
                    label.relocate(from, barTop - 16);
                }
                case TICK -> {
                    Node label = shape.node();
                    label.autosize();
                    double labelWidth = label.getLayoutBounds().getWidth();
                    label.relocate(Math.max(0, Math.min(from - labelWidth / 2, getWidth() - labelWidth)), axisY + 4);
                }
            }
        }
    }

    @Override
    protected double computePrefWidth(double height) {
        return 480;
    }
}
