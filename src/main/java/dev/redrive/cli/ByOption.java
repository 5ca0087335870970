package dev.redrive.cli;

import picocli.CommandLine.Option;

/**
 * {@code --by}: who changes what the workflow runtime owns (a run, a tool's schema version, an approval), recorded with
 * the change; the OS user when left out. Unlike {@link OperatorOption} it names no triage decision.
 */
final class ByOption {
    @Option(names = "--by", paramLabel = "NAME", defaultValue = "${sys:user.name}",
            description = "who (default: ${DEFAULT-VALUE})")
    String name;
}
