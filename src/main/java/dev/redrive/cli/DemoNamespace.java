package dev.redrive.cli;

import dev.redrive.config.RedriveConfig;
import dev.redrive.demo.sandbox.Sandbox;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The sandbox lives in its own namespace ({@value Sandbox#NAMESPACE}) unless {@code -n} names another one; the console
 * opened on it reconciles through the sandbox's demo tools.
 */
final class DemoNamespace {
    private DemoNamespace() {
    }

    static RedriveConfig config(ConnectionOptions connection, CommandSpec spec) {
        RedriveConfig config = connection.config();
        boolean namespaceGiven = spec.commandLine().getParseResult().hasMatchedOption("--namespace");
        return namespaceGiven ? config : config.withNamespace(Sandbox.NAMESPACE);
    }
}
