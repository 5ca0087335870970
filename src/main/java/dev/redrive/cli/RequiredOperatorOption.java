package dev.redrive.cli;

import picocli.CommandLine.Option;

/**
 * {@code --operator} where the command must name who acts, never the OS user by default: an approval or a rejection
 * of someone else's request, a change of the namespace's policy.
 */
final class RequiredOperatorOption {
    @Option(names = "--operator", required = true, paramLabel = "NAME",
            description = "who acts, kept in the audit log; the database also records your login")
    String given;

    /** The name the act is recorded under; an empty one is refused in one line. */
    String name() {
        return TriageSession.operator(given);
    }
}
