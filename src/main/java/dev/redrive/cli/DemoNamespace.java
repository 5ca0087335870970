package dev.redrive.cli;

import dev.redrive.config.RedriveConfig;
import dev.redrive.demo.sandbox.Sandbox;
import picocli.CommandLine.Model.CommandSpec;

import java.util.Map;
import java.util.stream.Collectors;

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

    /** {@code tool=url, tool=url}: how the console takes look-up endpoints (as REDRIVE_LOOKUP_ENDPOINTS). */
    static String lookupEndpoints(Sandbox sandbox) {
        return sandbox.lookupEndpoints().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining(", "));
    }
}
