package dev.redrive.console.wizard;

import dev.redrive.triage.precondition.PreconditionReport;
import dev.redrive.triage.precondition.PreconditionResult;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One entry's checks on the preconditions page: each condition with its verdict, why and the facts; under a failed
 * one, what can be done about it, a click away.
 */
final class CheckList {
    private CheckList() {
    }

    static void render(VBox list, PreconditionReport report, List<Remedy> remedies, String schemaChange,
                       Consumer<Remedy> onRemedy) {
        list.getChildren().clear();
        if (report == null) {
            return;
        }
        // What blocks comes first, with its remedy, so neither hides below the fold of a small window.
        List<PreconditionResult> failedFirst = java.util.stream.Stream.concat(report.failed().stream(),
                report.results().stream().filter(PreconditionResult::passed)).toList();
        for (PreconditionResult result : failedFirst) {
            Label title = new Label((result.passed() ? "✔ " : "✘ ") + result.id().title()
                    + (result.passed() ? "" : ": " + result.found()));
            title.getStyleClass().addAll("check-title", result.passed() ? "check-passed" : "check-failed");
            title.setId("check-" + result.id().key());
            Label why = wrapped(result.explanation());
            // A fact with no value (no approval, no status reason) is left out, as the report leaves it out.
            Label facts = wrapped(result.facts().entrySet().stream().filter(fact -> fact.getValue() != null)
                    .map(fact -> fact.getKey() + "=" + fact.getValue()).collect(Collectors.joining("  ")));
            facts.getStyleClass().add("check-facts");
            VBox block = new VBox(2, title, why, facts);
            block.getStyleClass().add("check-block");
            List<Remedy> here = remedies.stream().filter(remedy -> remedy.check() == result.id()).toList();
            boolean schemaShown = !schemaChange.isEmpty() && result.id() == dev.redrive.triage.precondition.PreconditionId.TOOL_SCHEMA;
            if (!here.isEmpty() || schemaShown) {
                block.getChildren().add(remedyBox(result, here, schemaShown ? schemaChange : null, onRemedy));
            }
            list.getChildren().add(block);
        }
    }

    private static Node remedyBox(PreconditionResult result, List<Remedy> remedies, String schemaChange,
                                  Consumer<Remedy> onRemedy) {
        VBox box = new VBox(6);
        box.getStyleClass().add("check-remedy");
        box.setId("remedy-" + result.id().key());
        if (schemaChange != null) {
            Label change = wrapped(schemaChange);
            change.setId("schemaChange");
            change.getStyleClass().add("schema-change");
            box.getChildren().add(change);
        }
        HBox buttons = new HBox(8);
        buttons.setAlignment(Pos.CENTER_LEFT);
        buttons.getChildren().addAll(buttons(remedies, onRemedy));
        box.getChildren().add(buttons);
        return box;
    }

    /** One button per remedy, each with an id tests and screenshots find it by. */
    static List<Button> buttons(List<Remedy> remedies, Consumer<Remedy> onRemedy) {
        return remedies.stream().map(remedy -> {
            Button button = new Button(remedy.label());
            button.setId("remedy-" + remedy.action().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            button.setMinWidth(Button.USE_PREF_SIZE);
            if (remedy.advances() || remedy.action() == Remedy.Action.CHOOSE_SCHEMA && remedy.version() != null) {
                button.getStyleClass().add("accent");
            }
            button.setOnAction(event -> onRemedy.accept(remedy));
            return button;
        }).toList();
    }

    private static Label wrapped(String text) {
        Label label = new Label(text);
        label.setWrapText(true);
        label.setMinHeight(Label.USE_PREF_SIZE);
        return label;
    }
}
