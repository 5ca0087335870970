package dev.redrive.console;

import dev.redrive.console.ui.Theme;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** Shows a screen under test on the TestFX stage, in a scene of the given size with the console's stylesheet on it. */
public final class ThemedStage {
    private ThemedStage() {
    }

    public static void show(Stage stage, Parent root, double width, double height) {
        Scene scene = new Scene(root, width, height);
        scene.getStylesheets().add(Theme.stylesheet());
        stage.setScene(scene);
        stage.show();
    }
}
