package dev.redrive.console.wizard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.redrive.console.concurrent.UiExecutor;
import dev.redrive.console.ui.ActButton;
import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.console.ui.TabMovesFocus;
import dev.redrive.triage.decision.DecisionKind;
import dev.redrive.triage.decision.DecisionOutcome;
import dev.redrive.triage.decision.DecisionResult;
import dev.redrive.triage.request.RequestOptions;
import dev.redrive.triage.request.Submission;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.Window;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Resolve and discard without the wizard: a dialog asks for the reason (and the operator), the decision runs in the
 * background (as a request when the four-eyes policy covers it), and its outcome is shown as it is, refusals included
 * with who decided and when.
 */
public final class DecisionDialogs {
    private final WizardBackend backend;
    private final UiExecutor executor;

    public DecisionDialogs(WizardBackend backend, UiExecutor executor) {
        this.backend = backend;
        this.executor = executor;
    }

    /** What the operator typed: why, under which name, and for a resolve the result (null: the reconciled one). */
    public record Reasoned(String reason, String operator, JsonNode result) {
    }

    /** What came of the dialog: the decision taken, or the request the four-eyes policy made of it. */
    private record Outcome(DecisionResult decided, Submission requested) {
    }

    public void decide(Window owner, DecisionKind kind, WizardItem item, String operator, Consumer<DecisionResult> done) {
        ask(owner, kind, item, operator).ifPresent(answer -> executor.submit(
                verb(kind) + " " + subject(item), () -> take(kind, item, answer),
                outcome -> {
                    if (outcome.requested() != null) {
                        showRequest(owner, kind, item, outcome.requested());
                        return;
                    }
                    show(owner, kind, item, outcome.decided());
                    done.accept(outcome.decided());
                }));
    }

    /** As the wizard and the CLI do: a decision the four-eyes policy covers is recorded as a request instead. */
    private Outcome take(DecisionKind kind, WizardItem item, Reasoned answer) {
        RequestOptions options = kind == DecisionKind.RESOLVE ? RequestOptions.resolve(answer.result()) : RequestOptions.NONE;
        Optional<Submission> requested = backend.requestIfCovered(kind, List.of(item.target()), options,
                answer.operator(), answer.reason());
        if (requested.isPresent()) {
            return new Outcome(null, requested.get());
        }
        return new Outcome(kind == DecisionKind.RESOLVE
                ? backend.resolve(item.target(), answer.result(), answer.operator(), answer.reason())
                : backend.discard(item.target(), answer.operator(), answer.reason()), null);
    }

    private static Optional<Reasoned> ask(Window owner, DecisionKind kind, WizardItem item, String operator) {
        TextArea reason = new TextArea();
        reason.setPrefRowCount(3);
        reason.setWrapText(true);
        reason.setId("decisionDialogReason");
        TabMovesFocus.install(reason);
        TextField who = new TextField(operator);
        who.setId("decisionDialogOperator");
        GridPane grid = new GridPane();
        grid.setHgap(10);
        grid.setVgap(8);
        // Without constraints the wide text area squeezes the labels down to "…".
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        grid.getColumnConstraints().addAll(labels, fields);
        grid.addRow(0, new Label("Reason"), reason);
        grid.addRow(1, new Label("Operator"), who);
        ResultInput result = new ResultInput();
        Label problem = new Label();
        if (kind == DecisionKind.RESOLVE) {
            grid.addRow(2, new Label("Result"), resultField(result, item.operationId() == null));
            problem.textProperty().bind(result.problemProperty());
            problem.getStyleClass().add("read-only-warning");
            problem.setWrapText(true);
            grid.add(problem, 1, 3);
        }
        Dialog<Reasoned> dialog = new Dialog<>();
        DialogPlacement.over(dialog, owner);
        dialog.setTitle(verb(kind) + " " + subject(item));
        dialog.setHeaderText(header(kind, item));
        ButtonType confirm = new ButtonType(verb(kind), ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(confirm, ButtonType.CANCEL);
        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().lookupButton(confirm).disableProperty()
                .bind(reason.textProperty().isEmpty().or(who.textProperty().isEmpty())
                        .or(result.problemProperty().isNotEmpty()));
        dialog.setResultConverter(button -> button == confirm
                ? new Reasoned(reason.getText().strip(), who.getText().strip(), result.value()) : null);
        ActButton.arm(dialog, confirm, reason);
        return dialog.showAndWait();
    }

    /** Like {@code resolve --result}: empty takes the APPLIED reconciliation's result; an entry alone needs none. */
    private static TextField resultField(ResultInput result, boolean entryAlone) {
        TextField field = new TextField();
        field.setId("decisionDialogResult");
        field.setPromptText(entryAlone ? "optional, kept in the audit log: a JSON object"
                : "the tool's result, a JSON object; empty: the APPLIED reconciliation's");
        field.setPrefColumnCount(36);
        field.textProperty().bindBidirectional(result.textProperty());
        return field;
    }

    /** The operation, or the DLQ entry when it has no operation of its own. */
    private static String subject(WizardItem item) {
        return item.operationId() != null ? item.operationId() : "DLQ entry " + item.dlqEntryId();
    }

    private static String header(DecisionKind kind, WizardItem item) {
        if (item.entryOnly()) {
            return kind == DecisionKind.RESOLVE
                    ? "Mark this DLQ entry resolved (handled elsewhere). It has no operation: nothing else changes."
                    : "Discard this DLQ entry. It has no operation: nothing else changes.";
        }
        if (item.dlqEntryId() == null) {
            return kind == DecisionKind.RESOLVE
                    ? "Cancel the retry this operation waits for and mark it succeeded with its result. "
                    + "It will never run again."
                    : "Cancel the retry this operation waits for and give it up. It will never run again.";
        }
        return kind == DecisionKind.RESOLVE
                ? "Mark the operation succeeded with its reconciled result. It will never run again."
                : "Give the operation up. It will never run again.";
    }

    private static void show(Window owner, DecisionKind kind, WizardItem item, DecisionResult result) {
        Alert alert = new Alert(result.recorded() ? Alert.AlertType.INFORMATION : Alert.AlertType.WARNING);
        DialogPlacement.over(alert, owner);
        alert.setTitle(verb(kind) + " " + subject(item));
        alert.setHeaderText(headline(result.outcome()));
        alert.setContentText(result.message());
        alert.show();
    }

    private static void showRequest(Window owner, DecisionKind kind, WizardItem item, Submission submission) {
        Alert alert = new Alert(submission.recorded() ? Alert.AlertType.INFORMATION : Alert.AlertType.WARNING);
        DialogPlacement.over(alert, owner);
        alert.setTitle(verb(kind) + " " + subject(item));
        alert.setHeaderText(submission.recorded() ? "Waiting for a second operator's approval"
                : headline(submission.outcome()));
        alert.setContentText(submission.message() + (submission.recorded()
                ? ". Nothing is decided until someone else approves it under Requests." : ""));
        alert.show();
    }

    /** What became of the decision, in words: the enum's name told an operator little ("ALREADY_DECIDED"). */
    private static String headline(DecisionOutcome outcome) {
        return switch (outcome) {
            case DONE -> "Recorded";
            case NOT_PUBLISHED -> "Recorded; its dispatch is not published yet";
            case BLOCKED -> "Not recorded: a check blocks it";
            case ALREADY_DECIDED -> "Not recorded: someone else decided it first";
            case REFUSED -> "Not recorded: the database refused it";
            case WOULD_PASS -> throw new IllegalArgumentException("a dry run is not a decision");
        };
    }

    private static String verb(DecisionKind kind) {
        return switch (kind) {
            case REDRIVE -> "Redrive";
            case RESOLVE -> "Resolve";
            case DISCARD -> "Discard";
            case CORRECT -> "Correct and redrive";
        };
    }
}
