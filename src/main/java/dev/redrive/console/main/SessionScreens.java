package dev.redrive.console.main;

import javafx.scene.Node;

/** The screens built for one open session; closed when the session is replaced or the window closes. */
public interface SessionScreens extends AutoCloseable {
    Node health();

    Node browser();

    Node detail();

    /** Starts polling and live updates once the screens are in the window. */
    void start();

    @Override
    void close();
}
