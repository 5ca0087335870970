package dev.redrive.console.report;

import dev.redrive.console.ui.DialogPlacement;
import dev.redrive.console.ui.DesktopServices;
import dev.redrive.report.IncidentReport;
import dev.redrive.report.ReportFormat;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.event.ActionEvent;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceDialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.nio.file.Path;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The export flow: pick a format, pick a file, watch the progress while the report is built and written, then the
 * file opens in the platform's viewer and a note says where it is, with a button that opens its folder.
 */
public final class ReportExportView {
    private final ReportExportViewModel model;
    private final DesktopServices desktop;

    public ReportExportView(ReportExportViewModel model, DesktopServices desktop) {
        this.model = model;
        this.desktop = desktop;
    }

    public void export(Window owner, String what, String fileStem, Callable<IncidentReport> source) {
        // Offered by title ("Markdown"): a ChoiceDialog shows its items' toString, the constant's name.
        Map<String, ReportFormat> byTitle = new LinkedHashMap<>();
        for (ReportFormat format : ReportFormat.values()) {
            byTitle.put(format.title(), format);
        }
        ChoiceDialog<String> formats = new ChoiceDialog<>(ReportFormat.PDF.title(), List.copyOf(byTitle.keySet()));
        DialogPlacement.over(formats, owner);
        formats.setTitle("Export incident report");
        formats.setHeaderText("Export the incident report of " + what);
        formats.setContentText("Format");
        formats.showAndWait().map(byTitle::get).ifPresent(format -> desktop.chooseSaveFile(owner, "Save the report",
                        fileStem.replaceAll("[^A-Za-z0-9._-]", "_") + "." + format.extension(),
                        new FileChooser.ExtensionFilter(format.title(), "*." + format.extension()))
                .ifPresent(file -> write(owner, what, source, format, file)));
    }

    /** Writes with a progress dialog that closes when the export ends however it ends; the written file opens. */
    private void write(Window owner, String what, Callable<IncidentReport> source, ReportFormat format, Path file) {
        Alert progress = progress(owner);
        ChangeListener<Boolean> closeWhenDone = new ChangeListener<>() {
            @Override
            public void changed(ObservableValue<? extends Boolean> observable, Boolean was, Boolean running) {
                if (!running) {
                    observable.removeListener(this);
                    progress.close();
                }
            }
        };
        model.runningProperty().addListener(closeWhenDone);
        model.export(what, source, format, file, path -> {
            saved(owner, path);
            desktop.open(path.toUri().toString());
        });
    }

    /**
     * Says where the report went, and offers its folder: the viewer that opens it may not say where it is, or may not
     * open at all.
     */
    private void saved(Window owner, Path path) {
        Alert alert = new Alert(Alert.AlertType.INFORMATION);
        DialogPlacement.over(alert, owner);
        alert.setTitle("Report saved");
        alert.setHeaderText("The incident report is saved");
        TextField where = new TextField(path.toAbsolutePath().toString());
        where.setId("reportSavedPath");
        where.setEditable(false);
        where.setPrefColumnCount(48);
        alert.getDialogPane().setContent(where);
        ButtonType openFolder = new ButtonType("Open folder", ButtonBar.ButtonData.LEFT);
        // Close is a cancel button, so Escape closes the note as it closes any dialog.
        alert.getButtonTypes().setAll(openFolder, ButtonType.CLOSE);
        Button folderButton = (Button) alert.getDialogPane().lookupButton(openFolder);
        folderButton.setId("openReportFolder");
        folderButton.addEventFilter(ActionEvent.ACTION,
                event -> desktop.open(path.toAbsolutePath().getParent().toUri().toString()));
        alert.show();
    }

    private Alert progress(Window owner) {
        Alert alert = new Alert(Alert.AlertType.NONE);
        DialogPlacement.over(alert, owner);
        alert.setTitle("Exporting");
        Label text = new Label();
        text.textProperty().bind(model.messageProperty());
        alert.getDialogPane().setContent(new HBox(10, new ProgressIndicator(), text));
        alert.getButtonTypes().setAll(ButtonType.CANCEL);
        alert.setOnCloseRequest(event -> model.cancel());
        alert.show();
        return alert;
    }
}
