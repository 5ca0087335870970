package dev.redrive.console;

import atlantafx.base.theme.PrimerLight;
import dev.redrive.console.main.MainWindowView;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.stage.Stage;

/** The triage console's JavaFX application. */
public final class ConsoleApp extends Application {
    private MainWindowView mainWindow;

    @Override
    public void start(Stage stage) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        mainWindow = MainWindowView.load(ConsoleLauncher.settings());
        stage.setTitle("Redrive");
        stage.setScene(new Scene(mainWindow.root(), 1280, 800));
        stage.show();
        mainWindow.start();
    }

    @Override
    public void stop() {
        if (mainWindow != null) {
            mainWindow.close();
        }
    }
}
