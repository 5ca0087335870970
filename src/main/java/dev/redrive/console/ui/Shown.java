package dev.redrive.console.ui;

import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.Node;

/**
 * Nodes that are there only while a condition holds: hidden, they also leave the layout, so that no empty gap stands
 * where they would be (visible alone keeps their room).
 */
public final class Shown {
    private Shown() {
    }

    public static void when(ObservableBooleanValue condition, Node... nodes) {
        for (Node node : nodes) {
            node.visibleProperty().bind(condition);
            node.managedProperty().bind(condition);
        }
    }
}
