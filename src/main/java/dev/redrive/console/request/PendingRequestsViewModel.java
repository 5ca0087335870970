package dev.redrive.console.request;

import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.triage.request.ApprovalResult;
import dev.redrive.triage.request.DecisionRequest;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * The requests waiting for a second operator: how many (the main window's badge), which, and the approval or rejection
 * of the selected one under the operator's name. What the database says is shown as it is: a refusal of one's own
 * request, a precondition that fails now, an expiry.
 */
public final class PendingRequestsViewModel {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneId.systemDefault());

    private final RequestsBackend backend;
    private final UiExecutor executor;
    private final ReadOnlyLongWrapper count = new ReadOnlyLongWrapper();
    private final ReadOnlyStringWrapper badge = new ReadOnlyStringWrapper("Requests: 0");
    private final ObservableList<DecisionRequest> requests = FXCollections.observableArrayList();
    private final ObjectProperty<DecisionRequest> selected = new SimpleObjectProperty<>();
    private final StringProperty operator = new SimpleStringProperty();
    private final StringProperty reason = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");

    public PendingRequestsViewModel(RequestsBackend backend, UiExecutor executor, String operator) {
        this.backend = backend;
        this.executor = executor;
        this.operator.set(operator);
        count.addListener((obs, was, now) -> badge.set("Requests: " + now));
        selected.addListener((obs, was, now) -> detail.set(now == null ? "" : describe(now)));
    }

    /** A request in full, for the line under the list where its columns are too narrow. */
    static String describe(DecisionRequest request) {
        return "Request " + request.id() + ": " + request.summary() + "\n"
                + "Asked by " + request.requestedBy() + " (login " + request.requestedLogin() + ") at "
                + time(request.requestedAt()) + "; expires " + time(request.expiresAt()) + "\n"
                + "Why it waits: " + request.coveredBy() + "\n"
                + "Reason: " + request.reason();
    }

    /** "2026-12-08 21:00", in the console's time zone. */
    public static String time(Instant at) {
        return at == null ? "" : TIME.format(at);
    }

    /** Reads how many requests wait (polled with the live updates). */
    public void refreshCount() {
        executor.submit("Counting the requests that wait for approval", backend::countPending, count::set);
    }

    /** Reads the waiting requests, and their count with them. */
    public void load() {
        executor.submit("Loading the requests that wait for approval", backend::pending, loaded -> {
            DecisionRequest was = selected.get();
            requests.setAll(loaded);
            count.set(loaded.size());
            selected.set(was == null ? null : loaded.stream().filter(request -> request.id() == was.id())
                    .findFirst().orElse(null));
        });
    }

    public void approve() {
        DecisionRequest request = selected.get();
        String who = operator.get() == null ? "" : operator.get().strip();
        if (request == null || who.isEmpty()) {
            message.set("Choose a request and give your name to approve it.");
            return;
        }
        decide("Approving request " + request.id(), () -> backend.approve(request.id(), who), result -> { });
    }

    public void reject() {
        DecisionRequest request = selected.get();
        String who = operator.get() == null ? "" : operator.get().strip();
        String why = reason.get() == null ? "" : reason.get().strip();
        if (request == null || who.isEmpty() || why.isEmpty()) {
            message.set("Choose a request, give your name and say why to reject it.");
            return;
        }
        decide("Rejecting request " + request.id(), () -> backend.reject(request.id(), who, why),
                result -> reason.set(""));
    }

    private void decide(String what, Callable<ApprovalResult> work,
                        Consumer<ApprovalResult> after) {
        message.set(what + "…");
        executor.submit(what, work, result -> {
            message.set(outcomeLine(result));
            after.accept(result);
            load();
        });
    }

    /**
     * The triage core's line already says what happened ("refused by the database: …", "request 7 approved by bob: …"):
     * the outcome's name in front of it said it twice ("REFUSED refused").
     */
    static String outcomeLine(ApprovalResult result) {
        String line = result.message();
        String named = "request " + result.requestId() + " ";
        return line.startsWith(named) ? "R" + line.substring(1) : "Request " + result.requestId() + ": " + line;
    }

    public ReadOnlyLongProperty countProperty() {
        return count.getReadOnlyProperty();
    }

    /** "Requests: 2". */
    public ReadOnlyStringProperty badgeProperty() {
        return badge.getReadOnlyProperty();
    }

    public ObservableList<DecisionRequest> requests() {
        return FXCollections.unmodifiableObservableList(requests);
    }

    public ObjectProperty<DecisionRequest> selectedProperty() {
        return selected;
    }

    public StringProperty operatorProperty() {
        return operator;
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    /** The selected request in full: what, who asked and when, why it waits, the reason; empty with none chosen. */
    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    /** The last approval's or rejection's outcome, in a line. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }
}
