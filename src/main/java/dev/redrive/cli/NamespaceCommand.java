package dev.redrive.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * A command that works on one namespace: the connection options every such command takes (the same names,
 * environment variables and defaults everywhere) and the command line it was called from, for its output.
 */
abstract class NamespaceCommand implements Callable<Integer> {
    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;
}
