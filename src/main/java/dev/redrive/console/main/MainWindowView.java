package dev.redrive.console.main;

import dev.redrive.console.ConsoleLauncher.LaunchSettings;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.control.Label;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The main window: binds the status bar to its view-model. */
public final class MainWindowView {
    @FXML
    private Label connectionLabel;
    @FXML
    private Label statusLabel;

    private Parent root;
    private MainWindowViewModel model;

    public static MainWindowView load(LaunchSettings settings) {
        FXMLLoader loader = new FXMLLoader(MainWindowView.class.getResource("/console/main/MainWindow.fxml"));
        try {
            Parent root = loader.load();
            MainWindowView view = loader.getController();
            view.root = root;
            view.model = new MainWindowViewModel(settings.config());
            view.bind();
            return view;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void bind() {
        connectionLabel.textProperty().bind(model.connectionProperty());
        statusLabel.textProperty().bind(model.statusProperty());
    }

    public Parent root() {
        return root;
    }

    public void start() {
    }

    public void close() {
    }
}
