package dev.redrive.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * How a batch shows its items while it runs: by default a progress line on stderr and the summary at the end (a
 * batch of 10,000 items is not 10,000 lines on a terminal); a line per item on stdout with {@code --verbose}, in a
 * file with {@code --out}. Shared by the commands that run a durable batch.
 */
final class BatchOutputOptions {
    @Option(names = {"-v", "--verbose"}, description = "print a line per item as it is decided, instead of the "
            + "progress line")
    boolean verbose;

    @Option(names = "--out", paramLabel = "FILE", description = "write a line per item as it is decided to FILE "
            + "(created or replaced); the terminal keeps the progress line and the summary")
    Path out;

    /** The item file, opened but not emptied yet, or null without {@code --out}. */
    ItemFile openItemFile() {
        return out == null ? null : ItemFile.open(out);
    }
}
