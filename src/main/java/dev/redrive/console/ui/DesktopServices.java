package dev.redrive.console.ui;

import javafx.application.HostServices;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.io.File;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the console asks of the operator's desktop: open a link or a file in the platform's viewer, and let the operator
 * choose where to save a file. One seam, so the screens that need it can be driven in tests where no native dialog
 * can open.
 */
public interface DesktopServices {
    /** Opens a URL or a {@code file:} URI in the platform's browser or viewer. */
    void open(String uri);

    /** Asks where to save a file; empty when the operator cancels. */
    Optional<Path> chooseSaveFile(Window owner, String title, String initialName, FileChooser.ExtensionFilter filter);

    /** The platform's own viewer (through the application's host services) and save dialog. */
    static DesktopServices of(HostServices hostServices) {
        return new DesktopServices() {
            @Override
            public void open(String uri) {
                hostServices.showDocument(uri);
            }

            @Override
            public Optional<Path> chooseSaveFile(Window owner, String title, String initialName,
                                                 FileChooser.ExtensionFilter filter) {
                FileChooser chooser = new FileChooser();
                chooser.setTitle(title);
                chooser.setInitialFileName(initialName);
                chooser.getExtensionFilters().add(filter);
                return Optional.ofNullable(chooser.showSaveDialog(owner)).map(File::toPath);
            }
        };
    }
}
