package dev.redrive.console.wizard;

import dev.redrive.console.OwnerWindow;
import dev.redrive.console.ui.Theme;
import dev.redrive.services.TriageServices;
import dev.redrive.testing.TestNamespace;
import dev.redrive.triage.decision.lookup.SideEffectLookup;
import dev.redrive.triage.redaction.Redactor;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Clock;
import java.util.List;

import static dev.redrive.console.wizard.WizardClicks.WAIT;
import static org.awaitility.Awaitility.await;

/**
 * The window the wizard tests open the wizard over (see {@link OwnerWindow}), and how they open it.
 */
final class WizardStage extends OwnerWindow {
    private final FxRobot robot = new FxRobot();

    WizardStage() {
        super(200, 100);
    }

    /** A window of this size, for tests that open a dialog over it rather than the wizard. */
    WizardStage(double width, double height) {
        super(width, height);
    }

    /** The triage services over the namespace, asking tools through {@code lookup}, as the console's wizard does. */
    static WizardBackend backend(TestNamespace ns, SideEffectLookup lookup) {
        return new TriageWizardBackend(TriageServices.over(ns.database(), ns.redis(), Clock.systemUTC()), lookup,
                Redactor.defaults());
    }

    /** Opens the wizard over the window on {@code items} for operator "ana", once {@code firstNode} shows. */
    ReconciliationWizardViewModel open(WizardBackend backend, List<WizardItem> items, String firstNode) {
        return open(backend, items, firstNode, stage());
    }

    /** Opens the wizard owned by {@code owner}, and waits until its first step shows {@code firstNode}. */
    ReconciliationWizardViewModel open(WizardBackend backend, List<WizardItem> items, String firstNode, Window owner) {
        ReconciliationWizardViewModel model = new ReconciliationWizardViewModel(backend, executor(), items, "ana");
        robot.interact(() -> {
            ReconciliationWizardView view = ReconciliationWizardView.load(model, owner, Theme.stylesheet());
            Platform.runLater(view::showAndWait);
        });
        await().atMost(WAIT).until(() -> robot.lookup(firstNode).tryQuery().map(Node::isVisible).orElse(false));
        return model;
    }

    /**
     * A second window standing in for the console maximised on the smallest screen it is made for (the headless
     * screen is 1280x800, too); hidden after the test as any window is.
     */
    Stage consoleOnTheSmallestScreen() throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> {
            Stage window = new Stage();
            window.setScene(new Scene(new StackPane()));
            window.setX(0);
            window.setY(0);
            window.setWidth(1280);
            window.setHeight(800);
            window.show();
            return window;
        }).get();
    }
}
