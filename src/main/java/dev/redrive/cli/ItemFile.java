package dev.redrive.cli;

import dev.redrive.config.FileProblem;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file {@code --out} names for a batch's item lines. It is opened before the batch is recorded, so that a file
 * that cannot be written records no batch, but emptied only once the batch runs: a command refused before that
 * (a misspelt group, a viewer's login) leaves an earlier run's file as it was, and one it created is removed.
 */
final class ItemFile implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final boolean created;
    private PrintWriter writer;

    private ItemFile(Path path, FileChannel channel, boolean created) {
        this.path = path;
        this.channel = channel;
        this.created = created;
    }

    /** @throws IllegalArgumentException in one line when {@code path} cannot be written */
    static ItemFile open(Path path) {
        boolean existed = Files.exists(path);
        try {
            return new ItemFile(path, FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    !existed);
        } catch (IOException e) {
            throw new IllegalArgumentException("--out " + path + " cannot be written: " + FileProblem.writing(e)
                    + "; expected a file in a folder you may write to", e);
        }
    }

    /** Empties the file for this run and returns its writer. */
    PrintWriter begin() {
        try {
            channel.truncate(0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty " + path + ": " + FileProblem.writing(e), e);
        }
        writer = new PrintWriter(Channels.newWriter(channel, StandardCharsets.UTF_8), false);
        return writer;
    }

    @Override
    public void close() {
        if (writer != null) {
            writer.close();
            return;
        }
        try {
            channel.close();
            if (created) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // Nothing was written to it; a file left behind empty is all that can come of this.
        }
    }
}
