package dev.redrive.console.main;

import javafx.scene.Node;

/** The screens built for one open session; closed when the session is replaced or the window closes. */
public interface SessionScreens extends AutoCloseable {
    Node health();

    Node browser();

    Node detail();

    /** The toolbar's badge of the four-eyes requests waiting for approval; it opens their list. */
    Node requests();

    /** The toolbar's badge of the durable batches (how many run); it opens their list with progress, Stop, Resume. */
    Node batches();

    /** Starts polling and live updates once the screens are in the window. */
    void start();

    @Override
    void close();
}
