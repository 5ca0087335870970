package dev.redrive.cli;

import picocli.CommandLine.Option;

/** {@code --json}, the same on every command that prints: one JSON document on stdout instead of the text. */
final class JsonOption {
    @Option(names = "--json", description = "print JSON")
    boolean json;

    boolean on() {
        return json;
    }
}
