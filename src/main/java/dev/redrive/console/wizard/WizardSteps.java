package dev.redrive.console.wizard;

import dev.redrive.console.ui.ActButton;
import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.console.ui.DialogSize;
import dev.redrive.console.ui.Shown;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.event.ActionEvent;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import org.controlsfx.dialog.Wizard;
import org.controlsfx.dialog.WizardPane;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The ControlsFX wizard around the reconciliation pages: its window and size, its buttons, and what the keys do. No key
 * typed in a field issues a decision: the decision step's button is no default button (Enter in the operator field
 * once redrove a batch), it names the act and the count, and only a click or Ctrl+Enter presses it.
 */
final class WizardSteps {
    private final ReconciliationWizardViewModel model;
    private final Window owner;
    private final Wizard wizard;
    private Stage window;

    WizardSteps(Window owner, ReconciliationWizardViewModel model) {
        this.model = model;
        this.owner = owner;
        this.wizard = new Wizard(owner, "Reconcile and decide");
    }

    /** A page whose Next follows {@code canContinue}; {@code onEnter} runs each time the page is entered. */
    WizardPane page(String header, VBox content, String help, Supplier<BooleanBinding> canContinue,
                    Consumer<WizardPane> onEnter) {
        WizardPane pane = new WizardPane() {
            @Override
            public void onEnteringPage(Wizard owner) {
                super.onEnteringPage(owner);
                owner.invalidProperty().unbind();
                owner.invalidProperty().bind(canContinue.get().not());
                keepWindowSize(this);
                // The dialog would give the focus to its first button, Cancel, and Enter on a focused button presses
                // it: the page itself takes the focus, so that Enter presses the default button, Next. (The decision
                // step then moves it to the reason.)
                Platform.runLater(content::requestFocus);
                onEnter.accept(this);
            }
        };
        pane.setHeader(StepHelp.header(header, StepHelp.attach(content, help)));
        pane.setContent(content);
        return pane;
    }

    /** Puts the pages in order in a resizable window of {@code size}, at least {@code smallest} where it fits. */
    void show(List<WizardPane> pages, DialogSize size, DialogSize smallest, List<String> stylesheets) {
        for (WizardPane pane : pages) {
            size.applyTo(pane);
            pane.getStylesheets().addAll(stylesheets);
        }
        wizard.setFlow(new Wizard.LinearFlow(pages.toArray(WizardPane[]::new)));
        // The first page now sits in the wizard's own window, which ControlsFX does not hand out otherwise.
        window = (Stage) pages.get(0).getScene().getWindow();
        window.setResizable(true);
        window.setMinWidth(Math.min(smallest.width(), size.width()));
        window.setMinHeight(Math.min(smallest.height(), size.height()));
        if (owner != null) {
            DialogPlacement.over(window, owner);
        }
    }

    void onHidden(Runnable hidden) {
        window.addEventHandler(WindowEvent.WINDOW_HIDDEN, event -> hidden.run());
    }

    void showAndWait() {
        wizard.showAndWait();
    }

    void hide() {
        window.hide();
    }

    /** Presses the page's Next, as a remedy that decides does to go on to the decision step. */
    void next() {
        button((WizardPane) window.getScene().getRoot(), ButtonBar.ButtonData.NEXT_FORWARD).ifPresent(Button::fire);
    }

    /**
     * On the decision step the button that issues says what it does ("Redrive 16 operations"), is pressed only by a
     * click or Ctrl+Enter, and the focus starts in {@code first} (the reason), never on the button.
     */
    void armTheAct(WizardPane pane, Node first) {
        // The wizard puts a new Next button in place after the page is entered: name the act on that one.
        Platform.runLater(() -> {
            button(pane, ButtonBar.ButtonData.NEXT_FORWARD).ifPresent(next -> {
                next.textProperty().bind(Bindings.when(model.waitsForApprovalProperty().isEmpty())
                        .then(model.actionTextProperty()).otherwise(Bindings.concat("Ask for approval: ",
                                model.actionTextProperty())));
                next.setId("issueDecision");
                next.setDefaultButton(false);
                next.setTooltip(new Tooltip("Click, or press Ctrl+Enter"));
                // The button bar gives all its buttons the width of the widest "Next"; this one grows with its words.
                ButtonBar.setButtonUniformSize(next, false);
                next.setPrefWidth(Button.USE_COMPUTED_SIZE);
                next.setMinWidth(Button.USE_PREF_SIZE);
                next.getParent().requestLayout();
            });
            first.requestFocus();
        });
    }

    /** Ctrl+Enter on the page presses its act (whichever button the wizard has put there), once it may be pressed. */
    void issueOnShortcut(WizardPane pane) {
        pane.addEventFilter(KeyEvent.KEY_PRESSED, event -> {
            if (ActButton.ISSUE.match(event)) {
                event.consume();
                button(pane, ButtonBar.ButtonData.NEXT_FORWARD).filter(act -> !act.isDisabled()).ifPresent(Button::fire);
            }
        });
    }

    /**
     * Once issued nothing can go back: no Previous; Cancel becomes Stop while a paced batch is being issued and goes
     * away after; Finish (as "Close") waits until every decision is recorded, and Escape then closes the page too.
     * A stray Escape never stops a batch.
     */
    void holdAfterIssuing(WizardPane pane) {
        pane.getButtonTypes().removeIf(type -> type.getButtonData() == ButtonBar.ButtonData.BACK_PREVIOUS);
        button(pane, ButtonBar.ButtonData.CANCEL_CLOSE).ifPresent(cancel -> {
            cancel.textProperty().bind(Bindings.when(model.pacingProperty()).then("Stop").otherwise("Cancel"));
            Shown.when(model.pacingProperty(), cancel);
            cancel.setId("stopBatch");
            // Caught on its way down, at the page: the wizard's own filter on the button would leave the page first
            // and take the Close button with it.
            pane.addEventFilter(ActionEvent.ACTION, event -> {
                if (event.getTarget() == cancel) {
                    event.consume();
                    if (model.pacingProperty().get()) {
                        model.stop();
                    }
                }
            });
        });
        // The wizard disables Finish itself while the page's "can continue" binding is false: until all is recorded.
        button(pane, ButtonBar.ButtonData.FINISH).ifPresent(finish -> {
            finish.setText("Close");
            pane.addEventFilter(KeyEvent.KEY_PRESSED, event -> {
                if (event.getCode() == KeyCode.ESCAPE) {
                    event.consume();
                    if (!finish.isDisabled()) {
                        finish.fire();
                    }
                }
            });
        });
    }

    private static Optional<Button> button(WizardPane pane, ButtonBar.ButtonData data) {
        return pane.getButtonTypes().stream().filter(type -> type.getButtonData() == data).findFirst()
                .map(pane::lookupButton).map(Button.class::cast);
    }

    /** Each page is a pane of its own that the window is fitted to: it gets the size the operator gave the window. */
    private void keepWindowSize(WizardPane entering) {
        if (window != null && window.isShowing()) {
            entering.setPrefSize(window.getScene().getWidth(), window.getScene().getHeight());
        }
    }
}
