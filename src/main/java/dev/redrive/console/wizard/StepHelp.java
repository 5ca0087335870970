package dev.redrive.console.wizard;

import dev.redrive.console.ui.Shown;

import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** The "?" in a step's header: it shows, at the top of the step, what the step means and what it asks for. */
final class StepHelp {
    static final String EVIDENCE = "What failed and what is known: the last error, whether the side effect may have "
            + "happened, the tool's schema then and now, the run, and every attempt on the timeline. Nothing is changed "
            + "on this step.";
    static final String RECONCILE = "Before anything runs again, settle whether the failed call changed the outside "
            + "world. Ask the tool's look-up by idempotency key, or record APPLIED / NOT APPLIED with your evidence. "
            + "While a side effect is POSSIBLE you cannot go on.";
    static final String PRECONDITIONS = "Each condition a redrive needs, checked against the store now, with the facts "
            + "it looked at. Under a failed one is what you can do about it: choose the current schema version, resolve "
            + "or discard instead, or refresh an entry someone else changed. Next stays disabled only when no decision "
            + "is possible at all.";
    static final String DECISION = "Choose what happens and say why. The button at the bottom names the act and its "
            + "size; nothing is written until you press it, and once issued it cannot be taken back. Every check runs "
            + "again as the decision is recorded.";
    static final String RESULT = "What became of each entry: succeeded, failed, blocked or waiting for a worker. A "
            + "redrive is followed until the worker has run it; one that failed again links to its new DLQ entry.";

    private StepHelp() {
    }

    /**
     * The step's header: its title and the "?" at the right. It replaces the dialog's own header, whose graphic the
     * wizard's stylesheet sets to an inert "?" image.
     */
    static HBox header(String title, ToggleButton help) {
        Label text = new Label(title);
        text.getStyleClass().add("step-title");
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox header = new HBox(8, text, gap, help);
        header.setAlignment(Pos.CENTER_LEFT);
        header.getStyleClass().addAll("header-panel", "step-header");
        return header;
    }

    /** A "?" toggle for a step's header; it shows {@code text} above the step's content while it is pressed. */
    static ToggleButton attach(VBox page, String text) {
        Label help = new Label(text);
        help.setWrapText(true);
        help.setMinHeight(Label.USE_PREF_SIZE);
        help.setMaxWidth(Double.MAX_VALUE);
        help.getStyleClass().add("wizard-help");
        help.getStyleClass().add("step-help");
        ToggleButton toggle = new ToggleButton("?");
        toggle.getStyleClass().add("wizard-help-button");
        toggle.setTooltip(new Tooltip("What this step means"));
        toggle.setId("stepHelp");
        Shown.when(toggle.selectedProperty(), help);
        page.getChildren().add(0, help);
        return toggle;
    }
}
