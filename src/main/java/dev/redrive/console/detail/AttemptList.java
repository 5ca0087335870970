package dev.redrive.console.detail;

import dev.redrive.health.Durations;
import dev.redrive.triage.detail.AttemptRecord;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.VBox;

import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The errors per attempt, one block each: a line of facts (attempt, outcome, class · code, start, duration) that
 * flows onto a second line in a narrow pane, and the whole normalized error below it, wrapped. A table with a column
 * per field cut the outcome, the time and the error at the detail pane's width; here nothing is cut, and the pane
 * scrolls. A block's tooltip adds the consumer, delivery and Retry-After. An attempt whose span a tracer recorded
 * names it on a line of its own, with a link that opens it in the tracer when the profile has a tracer template.
 */
final class AttemptList {
    private final DateTimeFormatter time;
    private final VBox list;
    private final ObservableList<AttemptRecord> attempts;
    private final Function<AttemptRecord, String> tracerUrl;
    private final Consumer<String> opener;

    private AttemptList(VBox list, ObservableList<AttemptRecord> attempts, DateTimeFormatter time,
                        Function<AttemptRecord, String> tracerUrl, Consumer<String> opener) {
        this.list = list;
        this.attempts = attempts;
        this.time = time;
        this.tracerUrl = tracerUrl;
        this.opener = opener;
    }

    /**
     * Keeps {@code list} showing {@code attempts}; {@code tracerUrl} says where an attempt's span opens (empty: no
     * link), {@code opener} opens it.
     */
    static AttemptList show(VBox list, ObservableList<AttemptRecord> attempts, DateTimeFormatter time,
                            Function<AttemptRecord, String> tracerUrl, Consumer<String> opener) {
        AttemptList view = new AttemptList(list, attempts, time, tracerUrl, opener);
        attempts.addListener((ListChangeListener<AttemptRecord>) change -> view.fill());
        view.fill();
        return view;
    }

    private void fill() {
        list.getChildren().setAll(attempts.stream().map(this::block).toList());
        if (attempts.isEmpty()) {
            list.getChildren().add(new Label("No attempt recorded."));
        }
    }

    private VBox block(AttemptRecord attempt) {
        FlowPane facts = new FlowPane(12, 2,
                fact("#" + attempt.attempt(), "attempt-number"),
                fact(attempt.outcome().replace('_', ' '), "attempt-outcome-" + attempt.outcome().toLowerCase(java.util.Locale.ROOT).replace('_', '-')),
                fact(classAndCode(attempt), "attempt-class"),
                fact(time.format(attempt.startedAt()), "attempt-started"),
                fact(took(attempt), "attempt-took"));
        facts.getChildren().removeIf(node -> ((Label) node).getText().isEmpty());
        VBox block = new VBox(2, facts);
        block.getStyleClass().add("attempt-block");
        if (attempt.errorMessage() != null && !attempt.errorMessage().isBlank()) {
            Label error = new Label(attempt.errorMessage());
            error.setWrapText(true);
            error.getStyleClass().add("attempt-error");
            block.getChildren().add(error);
        }
        if (attempt.hasSpan()) {
            block.getChildren().add(spanLine(attempt));
        }
        Tooltip.install(block, new Tooltip(describe(attempt)));
        block.setUserData(attempt);
        return block;
    }

    private FlowPane spanLine(AttemptRecord attempt) {
        FlowPane line = new FlowPane(8, 2, fact(span(attempt), "attempt-span"));
        String url = tracerUrl.apply(attempt);
        if (!url.isEmpty()) {
            Hyperlink open = new Hyperlink("Open in tracer");
            open.getStyleClass().add("attempt-span-link");
            open.setMinWidth(Hyperlink.USE_PREF_SIZE);
            open.setOnAction(event -> opener.accept(url));
            line.getChildren().add(open);
        }
        return line;
    }

    private static String span(AttemptRecord attempt) {
        return "span " + attempt.spanId() + " in trace " + attempt.traceId();
    }

    private static Label fact(String text, String styleClass) {
        Label label = new Label(text);
        label.getStyleClass().addAll("attempt-fact", styleClass);
        label.setMinWidth(Label.USE_PREF_SIZE);
        return label;
    }

    private static String classAndCode(AttemptRecord attempt) {
        return Stream.of(attempt.errorClass() == null ? null : attempt.errorClass().name(), attempt.errorCode())
                .filter(Objects::nonNull).collect(Collectors.joining(" · "));
    }

    private static String took(AttemptRecord attempt) {
        return attempt.finishedAt() == null ? "" : "took " + Durations.human(Duration.between(attempt.startedAt(), attempt.finishedAt()));
    }

    private String describe(AttemptRecord attempt) {
        return Stream.of(
                        "attempt " + attempt.attempt() + " · " + attempt.outcome(),
                        classAndCode(attempt),
                        "started " + time.format(attempt.startedAt())
                                + (attempt.finishedAt() == null ? "" : " · " + took(attempt)),
                        attempt.retryAfterMs() == null ? null
                                : "Retry-After " + Durations.human(Duration.ofMillis(attempt.retryAfterMs())),
                        attempt.nextEligibleAt() == null ? null : "next eligible " + time.format(attempt.nextEligibleAt()),
                        attempt.consumer() == null ? null : "consumer " + attempt.consumer()
                                + (attempt.deliveryId() == null ? "" : " · delivery " + attempt.deliveryId()),
                        attempt.hasSpan() ? span(attempt) : null)
                .filter(line -> line != null && !line.isEmpty()).collect(Collectors.joining("\n"));
    }
}
