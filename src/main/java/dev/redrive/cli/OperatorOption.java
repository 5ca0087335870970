package dev.redrive.cli;

import picocli.CommandLine.Option;

/** {@code --operator}: who decides, kept with the decision and in the audit log; the OS user when left out. */
final class OperatorOption {
    @Option(names = "--operator", paramLabel = "NAME",
            description = "who decides (default: your OS user); the database also records your login")
    String given;

    /** The name the decision is recorded under; an empty one is refused in one line. */
    String name() {
        return TriageSession.operator(given);
    }
}
