package dev.redrive.cli;

import dev.redrive.config.FileProblem;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

    /** The file's writer, or null without {@code --out}; a file that cannot be written is bad input, in one line. */
    PrintWriter openItemFile() {
        if (out == null) {
            return null;
        }
        try {
            return new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8), false);
        } catch (IOException e) {
            throw new IllegalArgumentException("--out " + out + " cannot be written: " + FileProblem.writing(e)
                    + "; expected a file in a folder you may write to", e);
        }
    }
}
