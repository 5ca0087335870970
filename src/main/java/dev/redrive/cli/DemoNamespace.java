package dev.redrive.cli;

import dev.redrive.config.RedriveConfig;
import dev.redrive.demo.sandbox.Sandbox;

/**
 * The sandbox lives in its own namespace ({@value Sandbox#NAMESPACE}) unless {@code -n} names another one; the console
 * opened on it reconciles through the sandbox's demo tools.
 */
final class DemoNamespace {
    private DemoNamespace() {
    }

    static RedriveConfig config(ConnectionOptions connection) {
        RedriveConfig config = connection.config();
        return connection.namespaceGiven() ? config : config.withNamespace(Sandbox.NAMESPACE);
    }
}
