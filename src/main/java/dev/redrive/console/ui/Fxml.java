package dev.redrive.console.ui;

import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;

import java.io.IOException;
import java.io.UncheckedIOException;

/** Loads a screen's FXML and hands back its controller with the loaded root. */
public final class Fxml {
    private Fxml() {
    }

    /** A loaded FXML file: its root node and the controller FXMLLoader created for it. */
    public record Loaded<C>(Parent root, C controller) {
    }

    public static <C> Loaded<C> load(String resource) {
        FXMLLoader loader = new FXMLLoader(Fxml.class.getResource(resource));
        try {
            Parent root = loader.load();
            return new Loaded<>(root, loader.getController());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + resource, e);
        }
    }
}
