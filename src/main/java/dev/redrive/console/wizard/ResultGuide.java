package dev.redrive.console.wizard;

import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.css.PseudoClass;
import javafx.scene.control.Label;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The result step's head: its first line says where the operator is and what happens next, so that after a decision
 * nobody wonders whether to wait, click again or close; under it, how many items are in each pile.
 */
final class ResultGuide {
    private static final String WHERE = "Step 5 of 5 · Result. ";
    private static final PseudoClass EMPTY = PseudoClass.getPseudoClass("empty");

    private ResultGuide() {
    }

    /** The line for the model's state, kept up to date. */
    static StringBinding of(ReconciliationWizardViewModel model) {
        return Bindings.createStringBinding(() -> say(model.decidingProperty().get(), model.pacingProperty().get(),
                        model.workerToCheckProperty().get(), model.resultCountProperty(ItemResult.Kind.WAITING).get(),
                        model.resultCountProperty(ItemResult.Kind.FAILED).get()),
                model.decidingProperty(), model.pacingProperty(), model.workerToCheckProperty(),
                model.resultCountProperty(ItemResult.Kind.WAITING), model.resultCountProperty(ItemResult.Kind.FAILED));
    }

    /** "3 succeeded", "0 failed", …: one label per pile, muted while it is empty. */
    static List<Label> counts(ReconciliationWizardViewModel model) {
        List<Label> counts = new ArrayList<>();
        for (ItemResult.Kind kind : ItemResult.Kind.values()) {
            String name = kind.name().toLowerCase(Locale.ROOT);
            Label count = new Label();
            count.setId("result-" + name);
            count.getStyleClass().addAll("result-count", "result-" + name);
            count.textProperty().bind(model.resultCountProperty(kind).asString().concat(" " + name));
            model.resultCountProperty(kind).addListener((obs, was, now) ->
                    count.pseudoClassStateChanged(EMPTY, now.intValue() == 0));
            count.pseudoClassStateChanged(EMPTY, true);
            counts.add(count);
        }
        return counts;
    }

    static String say(boolean deciding, boolean pacing, boolean workerToRun, int waiting, int failed) {
        if (deciding) {
            return WHERE + "Recording the decision now" + (pacing ? "; Stop ends the batch after the item in hand." : ".");
        }
        if (workerToRun) {
            return WHERE + "Recorded. Next: a worker runs what was redriven; this page reads it again every second "
                    + "until it ends. Close (Esc) any time: the DLQ list shows where each entry is.";
        }
        if (waiting > 0) {
            return WHERE + "Recorded as a request: nothing happens until a second operator approves it under "
                    + "Requests. Close (Esc) returns to the DLQ list.";
        }
        return WHERE + "Done. Close (Esc) returns to the DLQ list" + (failed > 0
                ? "; an item that failed again links to its new DLQ entry (double-click its row)." : ".");
    }
}
