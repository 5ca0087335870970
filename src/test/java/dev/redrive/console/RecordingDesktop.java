package dev.redrive.console;

import dev.redrive.console.ui.DesktopServices;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The operator's desktop in tests: answers save dialogs with the files queued beforehand (cancel when none is queued)
 * and remembers what it was asked to open and which file names the save dialogs proposed.
 */
public final class RecordingDesktop implements DesktopServices {
    private final Queue<Path> saveAnswers = new ConcurrentLinkedQueue<>();
    private final List<String> opened = new CopyOnWriteArrayList<>();
    private final List<String> proposedNames = new CopyOnWriteArrayList<>();

    /** The next save dialog answers with this file. */
    public RecordingDesktop answerSaveWith(Path file) {
        saveAnswers.add(file);
        return this;
    }

    @Override
    public void open(String uri) {
        opened.add(uri);
    }

    @Override
    public Optional<Path> chooseSaveFile(Window owner, String title, String initialName, FileChooser.ExtensionFilter filter) {
        proposedNames.add(initialName);
        return Optional.ofNullable(saveAnswers.poll());
    }

    public List<String> opened() {
        return List.copyOf(opened);
    }

    public List<String> proposedNames() {
        return List.copyOf(proposedNames);
    }
}
