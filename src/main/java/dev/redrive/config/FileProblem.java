package dev.redrive.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;

/**
 * Why a file could not be read or written, in the words an operator acts on ("no such folder", "permission denied").
 * The JDK's own message for most of these is the path alone, which a line that names the path already says.
 */
public final class FileProblem {
    private FileProblem() {
    }

    /** What kept a file from being read. */
    public static String reading(IOException e) {
        return e instanceof NoSuchFileException ? "no such file" : other(e);
    }

    /** What kept a file from being written: a missing path is a missing folder, since the file itself is created. */
    public static String writing(IOException e) {
        return e instanceof NoSuchFileException ? "no such folder" : other(e);
    }

    private static String other(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason().toLowerCase(Locale.ROOT);
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
